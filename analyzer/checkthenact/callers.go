package checkthenact

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Check and act in two critical sections of an inner lock are still one
// step when an outer lock, held from one acquisition across both, keeps
// every other writer out: every write of the field in the package is made
// holding a lock that conflicts with one held across (either side holds
// it for writing). gVisor's gofer creates a child holding parent.opMu for
// writing across two childrenMu sections; every write of children holds
// opMu, or holds fs.renameMu for writing where the create holds it for
// reading. Writes are seen where they happen, with the locks every caller
// of the writing function holds (callerLocks), so a helper that requires
// only the inner lock does not hide who calls it. The field must be
// unexported, so that the package sees every write.
//
// The same decides an atomic load and store: one step when a lock held
// across both is one every store of the variable conflicts with (overlay's
// updateAfterSetStatLocked, called with d.copyMu locked, the lock every
// store of d.accessACL holds).

// held is a set of locks with the mode each is held in.
type held map[lockpath.Path]lockstate.Mode

// heldAt returns the locks held at a point of f: its own state s, and the
// locks every caller of f holds (callerLocks) that s does not show
// released.
func (c *checker) heldAt(f *lockstate.Func, s *lockstate.State) held {
	out := held{}
	for _, p := range s.Held() {
		out[p] = s.Lock(p).Mode
	}
	for p, m := range c.callerLocks(f.Obj) {
		if _, ok := out[p]; !ok && s.Lock(p).Mode != lockstate.NotHeld {
			out[p] = m
		}
	}
	return out
}

// ignored reports whether fn is outside the lock model: declared
// //guard:ignore (+checklocksignore on the function), or an unexported
// function used only in calls from such functions (gVisor's stateify save
// and restore hooks, which run while nothing else does). Its writes are
// not evidence of a concurrent writer.
func (c *checker) ignored(fn *types.Func) bool {
	fn = fn.Origin()
	if v, ok := c.ignoredFns[fn]; ok {
		return v
	}
	c.ignoredFns[fn] = false // recursion
	v := false
	if k := c.ls.Dirs.Contract(fn); k != nil && k.Ignore != "" {
		v = true
	} else if !fn.Exported() && fn.Pkg() == c.pass.Pkg && c.onlyCalled(fn) {
		sites := c.sitesOf(fn)
		v = len(sites) > 0
		for _, site := range sites {
			v = v && c.ignored(site.f.Obj)
		}
	}
	c.ignoredFns[fn] = v
	return v
}

// sitesOf returns the calls of fn in this package.
func (c *checker) sitesOf(fn *types.Func) []callSite {
	if c.callsTo == nil {
		c.callsTo = map[*types.Func][]callSite{}
		for _, f := range c.ls.Funcs {
			for _, call := range f.Calls {
				if call.Callee != nil && !call.Deferred && call.State != nil {
					c.callsTo[call.Callee.Origin()] = append(c.callsTo[call.Callee.Origin()], callSite{f, call})
				}
			}
		}
	}
	return c.callsTo[fn.Origin()]
}

// callerLocks returns the locks every call of fn in this package holds,
// in fn's terms (rooted at its receiver or a parameter), each with the
// weakest mode it is held in. It is empty for a function other packages
// can call, or one used as a value, or never called.
func (c *checker) callerLocks(fn *types.Func) held {
	fn = fn.Origin()
	if got, ok := c.callers[fn]; ok {
		return got
	}
	c.callers[fn] = nil // recursion: nothing known
	if fn.Exported() || fn.Pkg() != c.pass.Pkg || !c.onlyCalled(fn) {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	var common held
	for i, site := range c.sitesOf(fn) {
		here := c.locksAtCall(site.f, site.call, sig)
		if i == 0 {
			common = here
			continue
		}
		for p, m := range common {
			hm, ok := here[p]
			switch {
			case !ok:
				delete(common, p)
			case hm != m:
				common[p] = lockstate.Shared // held in both, in some mode
			}
		}
	}
	c.callers[fn] = common
	return common
}

type callSite struct {
	f    *lockstate.Func
	call *lockstate.Call
}

// locksAtCall maps the locks held at a call (heldAt), inside its receiver
// or arguments, into the callee's terms.
func (c *checker) locksAtCall(f *lockstate.Func, call *lockstate.Call, sig *types.Signature) held {
	recv, sel, args := astq.CallOperands(c.pass.TypesInfo, call.Node)
	type operand struct {
		param *types.Var
		base  lockpath.Path
	}
	var ops []operand
	if recv != nil && sig.Recv() != nil {
		if b := f.Resolver.Of(recv); b.Valid() {
			if sel != nil {
				b = b.Field(locks.ImplicitFields(sel)...)
			}
			ops = append(ops, operand{sig.Recv(), b})
		}
	}
	for i, a := range args {
		if i < sig.Params().Len() {
			if b := f.Resolver.Of(a); b.Valid() {
				ops = append(ops, operand{sig.Params().At(i), b})
			}
		}
	}
	out := held{}
	for p, m := range c.heldAt(f, call.State) {
		if m != lockstate.Exclusive && m != lockstate.Shared && m != lockstate.Either {
			continue
		}
		if m == lockstate.Either {
			m = lockstate.Shared
		}
		for _, o := range ops {
			if p.HasPrefix(o.base) && p != o.base {
				out[lockpath.Path{Root: o.param, Sel: p.Sel[len(o.base.Sel):]}] = m
			}
		}
	}
	return out
}

// onlyCalled reports whether every use of fn in the package calls it.
func (c *checker) onlyCalled(fn *types.Func) bool {
	if c.called == nil {
		c.called = map[*ast.Ident]bool{}
		for _, file := range c.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					switch fun := ast.Unparen(call.Fun).(type) {
					case *ast.Ident:
						c.called[fun] = true
					case *ast.SelectorExpr:
						c.called[fun.Sel] = true
					}
				}
				return true
			})
		}
	}
	for id, obj := range c.pass.TypesInfo.Uses {
		if f, ok := obj.(*types.Func); ok && f.Origin() == fn && !c.called[id] {
			return false
		}
	}
	return true
}

// across returns the locks held at both a and b (points of f), from one
// acquisition, with the weaker of the two modes: held by f itself, or by
// every caller and released at neither.
func (c *checker) across(f *lockstate.Func, a, b *lockstate.State) held {
	out := held{}
	ha, hb := c.heldAt(f, a), c.heldAt(f, b)
	for p, ma := range ha {
		mb, ok := hb[p]
		if !ok || a.Lock(p).Site != b.Lock(p).Site {
			continue
		}
		if ma == lockstate.Exclusive && mb == lockstate.Exclusive {
			out[p] = lockstate.Exclusive
		} else {
			out[p] = lockstate.Shared
		}
	}
	return out
}

// writer is a write of a field (or an atomic store) that a lock held
// across check and act does not keep out.
type writer struct {
	pos token.Pos
	fn  *types.Func
}

// writersExcluded reports whether every write of field in the package
// (a guarded field's writes, or an atomic variable's stores) is made
// holding a lock that conflicts with one of locks, held across check and
// act on the object at base: the same lock of the written object, the
// same package-level lock, or, for a lock outside the object, one of its
// class. A writer that holds such a lock on some paths only (the others
// its caller's, as when a flag says whether the caller holds it) is given
// the benefit of the doubt; one that writes an object this function got
// from a constructor is initialising it. Otherwise it returns the first
// writer not excluded.
func (c *checker) writersExcluded(field string, base lockpath.Path, locks held) (bool, writer) {
	rest, inPkg := strings.CutPrefix(field, c.pass.Pkg.Path()+".")
	name, _, _ := strings.Cut(rest, "@") // see fieldKey
	if len(locks) == 0 || !inPkg || token.IsExported(name) {
		return false, writer{}
	}
	excluded := func(f *lockstate.Func, s *lockstate.State, at lockpath.Path) bool {
		if v, ok := at.Root.(*types.Var); ok {
			if s.Fresh(v) {
				if _, isParam := directives.ParamIndex(f.Obj.Type().(*types.Signature))[v]; !isParam {
					return true // a new object, not yet published
				}
			}
			if c.constructed(f, v) {
				return true
			}
		}
		there := c.heldAt(f, s)
		for l, m := range locks {
			for h, hm := range there {
				if (m == lockstate.Exclusive || hm == lockstate.Exclusive) && sameLockAt(l, base, h, at) {
					return true
				}
			}
			for _, h := range s.Paths() {
				if s.Lock(h).Mode == lockstate.Maybe && sameLockAt(l, base, h, at) {
					return true
				}
			}
		}
		return false
	}
	for _, f := range c.ls.Funcs {
		if c.ignored(f.Obj) {
			continue
		}
		for _, acc := range f.Accesses {
			if acc.Write && !acc.Fresh && fieldKey(acc.Var) == field && !excluded(f, acc.State, acc.Base) {
				return false, writer{acc.Pos, f.Obj}
			}
		}
		for _, call := range f.Calls {
			op, ok := atomicOpOf(f, call)
			if ok && op.store && atomicKey(c.pass.TypesInfo, op) == field && !excluded(f, call.State, op.target.Owner()) {
				return false, writer{call.Node.Pos(), f.Obj}
			}
		}
	}
	return true, writer{}
}

// constructed reports whether local v holds what a constructor of this
// package returned (x := fs.newDentry()): every return of the
// constructor returns an object it allocated (&T{...}, new(T), or a local
// defined from one).
func (c *checker) constructed(f *lockstate.Func, v *types.Var) bool {
	if f.Resolver == nil {
		return false
	}
	call, ok := ast.Unparen(f.Resolver.DefOf(v)).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return false
	}
	if v, ok := c.ctors[fn]; ok {
		return v
	}
	c.ctors[fn] = false
	ctor := lockstate.EveryReturn(c.funcs[fn], func(decl *lockstate.Func, r ast.Expr) bool {
		if id, ok := ast.Unparen(r).(*ast.Ident); ok {
			r = decl.Resolver.Def(id)
		}
		return r != nil && astq.NewObject(c.pass.TypesInfo, r)
	})
	c.ctors[fn] = ctor
	return ctor
}

// sameLockAt reports whether lock l, seen from the object at base, and
// lock h, seen from the object at at, are the same lock of each: at the
// same path inside the object, the same package-level lock, or (for locks
// outside the object) locks of one class.
func sameLockAt(l, base, h, at lockpath.Path) bool {
	if l.HasPrefix(base) && l != base {
		return h == lockpath.Path{Root: at.Root, Sel: at.Sel + l.Sel[len(base.Sel):]}
	}
	if v, ok := l.Root.(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return h == l
	}
	lk, _, ok1 := lockpath.Class(l)
	hk, _, ok2 := lockpath.Class(h)
	return ok1 && ok2 && lk == hk
}

// atomicKey is the field key (fieldKey) of the variable an atomic
// operation loads or stores, or "".
func atomicKey(info *types.Info, op atomicOp) string {
	if v := atomicField(info, op); v != nil {
		return fieldKey(v)
	}
	return ""
}

// atomicField returns the struct field an atomic operation loads or
// stores (x.f.Load(), atomic.StoreInt32(&x.f, v)), or nil.
func atomicField(info *types.Info, op atomicOp) *types.Var {
	var e ast.Expr
	if op.recv != nil {
		se, ok := ast.Unparen(op.call.Node.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		e = se.X
	} else if len(op.call.Node.Args) > 0 {
		e = op.call.Node.Args[0]
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok {
			e = u.X
		}
	}
	se, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if sel := info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
		v, _ := sel.Obj().(*types.Var)
		return v
	}
	return nil
}

// atomicOrdered reports whether a lock held across an atomic load and a
// store of the same variable keeps every other store out.
func (c *checker) atomicOrdered(f *lockstate.Func, load, store atomicOp) bool {
	ok, _ := c.writersExcluded(atomicKey(c.pass.TypesInfo, store), store.target.Owner(), c.across(f, load.call.State, store.call.State))
	return ok
}
