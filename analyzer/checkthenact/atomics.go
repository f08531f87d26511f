package checkthenact

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// sync.Map and sync/atomic: a Store that depends on an earlier Load of
// the same key or variable.

// syncMap reports m.Load(k) followed, in a branch that depends on it, by
// m.Store(k, v): two goroutines can both miss and both store.
func (c *checker) syncMap(f *lockstate.Func) {
	var loads []*lockstate.Call
	for _, call := range f.Calls {
		if !isSyncMap(call.Callee) || len(call.Node.Args) == 0 {
			continue
		}
		switch call.Callee.Name() {
		case "Load":
			loads = append(loads, call)
		case "Store":
			for _, load := range loads {
				if !sameMapAndKey(f, load.Node, call.Node) {
					continue
				}
				parents := c.syntax.Tree(f.Body())
				if c.controlledBy(f, parents, call.Node, load.Node) || c.writesValueOf(f, parents, call.Node, load.Node) {
					m := types.ExprString(call.Node.Fun.(*ast.SelectorExpr).X)
					c.rep.Reportf(call.Node.Pos(), report.Related(load.Node.Pos(), m+".Load here"),
						"check-then-act: %s.Store depends on an earlier %s.Load of the same key; another goroutine can store in between: use %s.LoadOrStore",
						m, m, m)
					break
				}
			}
		}
	}
}

// atomicOp is a load or store of one variable through sync/atomic: a
// method of an atomic type (x.Load(), x.Store(v)) or a function on its
// address (atomic.LoadInt32(&x), atomic.StoreInt32(&x, v)).
type atomicOp struct {
	call   *lockstate.Call
	target lockpath.Path
	store  bool
	value  ast.Expr   // the stored value
	recv   types.Type // the atomic type, for methods; nil for functions
}

func atomicOpOf(f *lockstate.Func, call *lockstate.Call) (atomicOp, bool) {
	fn := call.Callee
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return atomicOp{}, false
	}
	sig := fn.Type().(*types.Signature)
	op := atomicOp{call: call}
	name := fn.Name()
	if sig.Recv() != nil {
		se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
		if !ok {
			return atomicOp{}, false
		}
		op.target, op.recv = f.Resolver.Of(se.X), sig.Recv().Type()
		switch name {
		case "Load":
		case "Store":
			if len(call.Node.Args) != 1 {
				return atomicOp{}, false
			}
			op.store, op.value = true, call.Node.Args[0]
		default:
			return atomicOp{}, false
		}
	} else {
		if len(call.Node.Args) == 0 {
			return atomicOp{}, false
		}
		op.target = f.Resolver.Of(call.Node.Args[0])
		switch {
		case strings.HasPrefix(name, "Load"):
		case strings.HasPrefix(name, "Store") && len(call.Node.Args) == 2:
			op.store, op.value = true, call.Node.Args[1]
		default:
			return atomicOp{}, false
		}
	}
	return op, op.target.Valid()
}

// atomics reports a sync/atomic store that depends on an earlier load of
// the same variable: in a branch or after a guard clause on it
// (CompareAndSwap does both at once), or storing a value computed from it
// (Add does that). Each is atomic; the pair is not. Inside one critical
// section of a lock held exclusively at both, the lock orders them.
func (c *checker) atomics(f *lockstate.Func) {
	var loads []atomicOp
	for _, call := range f.Calls {
		op, ok := atomicOpOf(f, call)
		if !ok {
			continue
		}
		if !op.store {
			loads = append(loads, op)
			continue
		}
		// Only the latest load of the variable counts: a second load (under
		// a lock, after a fast-path check) is the re-check.
		for k := len(loads) - 1; k >= 0; k-- {
			l := loads[k]
			if l.target != op.target {
				continue
			}
			if sameSection(l.call.State, op.call.State) || c.atomicOrdered(f, l, op) {
				break
			}
			parents := c.syntax.Tree(f.Body())
			x := types.ExprString(ast.Unparen(op.call.Node.Fun).(*ast.SelectorExpr).X)
			loadCall, storeCall := types.ExprString(l.call.Node), types.ExprString(op.call.Node.Fun)
			related := report.Related(l.call.Node.Pos(), loadCall+" here")
			switch {
			case c.memoHit(f, parents, op.call.Node, l.call.Node):
				// if v := x.Load(); v != nil { return v }: a cache. Two
				// goroutines may both fill it, with the same value.
			case !c.strict && !c.writesValueOf(f, parents, op.call.Node, l.call.Node) && c.atomicStoreIfDiffers(f, parents, op, l):
				// if x.Load() != v { x.Store(v) }: idempotent (lossless.go).
			case c.controlledBy(f, parents, op.call.Node, l.call.Node):
				c.rep.Reportf(op.call.Node.Pos(), related,
					"check-then-act: %s runs only after %s said so, and another goroutine can store in between: use %s",
					storeCall, loadCall, casOf(op, x))
			case c.writesValueOf(f, parents, op.call.Node, l.call.Node):
				fix := casOf(op, x) + " in a loop"
				if add := addOf(f, op, l, x); add != "" {
					fix = add
				}
				c.rep.Reportf(op.call.Node.Pos(), related,
					"check-then-act: %s stores a value computed from %s, and an update another goroutine makes in between is lost: use %s",
					storeCall, loadCall, fix)
			default:
				continue
			}
			break
		}
	}
}

// memoHit reports whether the store runs only after a branch on the load
// whose other way returns what was loaded: the load is a cache lookup, and
// the store fills the cache (if v := x.Load(); v != nil { return v }).
func (c *checker) memoHit(f *lockstate.Func, parents *astq.Tree, w, r ast.Node) bool {
	fg := c.flow(f)
	if fg == nil {
		return false
	}
	wat, ok := fg.locate(parents, w)
	if !ok {
		return false
	}
	for _, b := range fg.controllers(parents, w) {
		conds, init, ok := branchCond(parents, b)
		if !ok || !c.anyCondOn(f, conds, init, r, w) {
			continue
		}
		for _, ret := range fg.returnsAvoiding(b, wat.block) {
			for _, res := range ret.Results {
				if contains(res, r) || c.usesValueOf(f, res, r) {
					return true
				}
			}
		}
	}
	return false
}

// sameSection reports whether some lock is held exclusively, from one
// acquisition, at both points.
func sameSection(a, b *lockstate.State) bool {
	for _, p := range a.Held() {
		if va, vb := a.Lock(p), b.Lock(p); va.Mode == lockstate.Exclusive && vb.Mode == lockstate.Exclusive && va.Site == vb.Site {
			return true
		}
	}
	return false
}

// casOf names the compare-and-swap that replaces a store.
func casOf(op atomicOp, x string) string {
	if op.recv != nil {
		return x + ".CompareAndSwap"
	}
	name := op.call.Callee.Name()
	return "atomic.CompareAndSwap" + strings.TrimPrefix(name, "Store")
}

// addOf names the Add that replaces a store of load ± delta, or "" when
// the stored value is not that or the type has no Add.
func addOf(f *lockstate.Func, op, load atomicOp, x string) string {
	be, ok := ast.Unparen(op.value).(*ast.BinaryExpr)
	if !ok || (be.Op != token.ADD && be.Op != token.SUB) {
		return ""
	}
	if op.recv != nil {
		if obj, _, _ := types.LookupFieldOrMethod(op.recv, true, nil, "Add"); obj == nil {
			return ""
		}
		return x + ".Add"
	}
	name := strings.TrimPrefix(op.call.Callee.Name(), "Store")
	if name == "Pointer" || name == "Value" {
		return ""
	}
	return "atomic.Add" + name
}

func isSyncMap(fn *types.Func) bool { return locks.MethodOf(fn, "sync", "Map") }

func sameMapAndKey(f *lockstate.Func, a, b *ast.CallExpr) bool {
	sa, ok1 := a.Fun.(*ast.SelectorExpr)
	sb, ok2 := b.Fun.(*ast.SelectorExpr)
	if !ok1 || !ok2 {
		return false
	}
	pa, pb := f.Resolver.Of(sa.X), f.Resolver.Of(sb.X)
	if !pa.Valid() || pa != pb {
		return false
	}
	return types.ExprString(a.Args[0]) == types.ExprString(b.Args[0])
}
