package checkthenact

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Dependence: whether a write depends on an earlier read, by control
// (a branch on the read decides whether it runs) or by data (it stores a
// value computed from the read).

// writesValueOf reports whether the value the write w stores uses r: the
// right-hand side of the assignment w is on the left of, or an argument
// of the helper call w.
func (c *checker) writesValueOf(f *lockstate.Func, parents *astq.Tree, w, r ast.Node) bool {
	uses := func(e ast.Node) bool { return c.containsValue(e, r) || c.usesValueOf(f, e, r) }
	if call, ok := w.(*ast.CallExpr); ok {
		for _, arg := range call.Args {
			if uses(arg) {
				return true
			}
		}
		return false
	}
	for n, parent := range parents.Ancestry(w) {
		as, ok := parent.(*ast.AssignStmt)
		if !ok {
			if _, stmt := parent.(ast.Stmt); stmt {
				return false
			}
			continue
		}
		for k, lhs := range as.Lhs {
			if lhs != n {
				continue
			}
			if len(as.Rhs) == len(as.Lhs) {
				return uses(as.Rhs[k])
			}
			return uses(as.Rhs[0])
		}
		return false
	}
	return false
}

// condOn reports whether a condition (with its init statement) depends on
// the value read at r: it contains the read, or uses a local computed from
// it. When r is a helper call, its error result does not count: branching
// on it is error handling (if err := s.load(); err != nil { return err }).
func (c *checker) condOn(f *lockstate.Func, cond ast.Node, init ast.Stmt, r ast.Node) bool {
	call, isCall := r.(*ast.CallExpr)
	if c.containsValue(cond, r) && !(isCall && isError(c.pass.TypesInfo.TypeOf(call))) {
		return true
	}
	if init != nil && contains(init, r) && !isCall {
		return true
	}
	return c.usesValueOf(f, cond, r)
}

// controlledBy reports whether whether w runs is decided by a branch on
// the value read at r: w is control dependent, on the go/cfg graph, on a
// condition that uses r (an if or loop around w, a switch case, or a
// guard clause or early exit anywhere before it, whatever the nesting).
func (c *checker) controlledBy(f *lockstate.Func, parents *astq.Tree, w, r ast.Node) bool {
	fg := c.flow(f)
	if fg == nil {
		return false
	}
	for _, b := range fg.controllers(parents, w) {
		if conds, init, ok := branchCond(parents, b); ok && c.anyCondOn(f, conds, init, r, w) {
			return true
		}
	}
	return false
}

// anyCondOn reports whether a branch's condition depends on r; a
// condition that contains w itself (a loop whose condition is the write)
// does not decide whether w runs.
func (c *checker) anyCondOn(f *lockstate.Func, conds []ast.Node, init ast.Stmt, r, w ast.Node) bool {
	for _, cond := range conds {
		if cond == nil || contains(cond, w) {
			continue
		}
		if c.condOn(f, cond, init, r) {
			return true
		}
	}
	return false
}

// flow returns the control-flow graph of a body, built once.
func (c *checker) flow(f *lockstate.Func) *flowGraph {
	fg, ok := c.flows[f]
	if !ok {
		if g := f.CFG(); g != nil {
			fg = newFlowGraph(g)
		}
		c.flows[f] = fg
	}
	return fg
}

// usesValueOf reports whether expression e mentions a local whose value
// comes from r: defined from an expression that contains r, or from
// another such local (v, _ := m.Load(k); s := v.(*T); ... s.id).
func (c *checker) usesValueOf(f *lockstate.Func, e ast.Node, r ast.Node) bool {
	if c.usesValue(f, e, r, map[types.Object]bool{}) {
		return true
	}
	// A local assigned more than once (v += d, v = w): which ones carry
	// the read where e is, on the control-flow graph (taint.go).
	s, ok := c.carriedAt(f, c.syntax.Tree(f.Body()), e, r)
	return ok && c.mentions(e, s)
}

func (c *checker) usesValue(f *lockstate.Func, e ast.Node, r ast.Node, seen map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		obj := f.Resolver.Info.Uses[id]
		if obj == nil || seen[obj] || isError(obj.Type()) {
			// An error says whether a step failed, not what the state
			// was: branching on it is error handling, not a check.
			return true
		}
		seen[obj] = true
		if def := f.Resolver.Def(id); def != nil && (c.containsValue(def, r) || c.usesValue(f, def, r, seen)) {
			found = true
		}
		for _, d := range c.multiDefs(f, id) {
			// v, ok := call(): v carries the call's first result, ok
			// its second.
			if d.rhs == r {
				if c.curResults == nil || slices.Contains(c.curResults, d.index) {
					found = true
				}
			} else if c.containsValue(d.rhs, r) || c.usesValue(f, d.rhs, r, seen) {
				found = true
			}
		}
		return !found
	})
	return found
}

var errorType = types.Universe.Lookup("error").Type()

// isError reports whether values of t are errors: error itself, or any
// type with its Error method (tcpip.Error, *os.PathError).
func isError(t types.Type) bool {
	return types.Implements(t, errorType.Underlying().(*types.Interface))
}

// multiDef is one v, ok := call() style definition of a variable: the
// right-hand side and the variable's position on the left.
type multiDef struct {
	rhs   ast.Node
	index int
}

// multiDefs returns the v, ok := call() style definitions of id, which
// Resolver.Def does not track. They are indexed once per body.
func (c *checker) multiDefs(f *lockstate.Func, id *ast.Ident) []multiDef {
	v, ok := f.Resolver.Info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := f.Body()
	defs, ok := c.defs[body]
	if !ok {
		defs = map[*types.Var][]multiDef{}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
				return true
			}
			for k, l := range as.Lhs {
				if lid, ok := l.(*ast.Ident); ok {
					if lv, ok := f.Resolver.Info.ObjectOf(lid).(*types.Var); ok {
						defs[lv] = append(defs[lv], multiDef{ast.Unparen(as.Rhs[0]), k})
					}
				}
			}
			return true
		})
		c.defs[body] = defs
	}
	return defs[v]
}

// returns lists the return statements of a body, not those of the
// function literals in it; indexed once per body.
func (c *checker) returns(f *lockstate.Func) []*ast.ReturnStmt {
	body := f.Body()
	rs, ok := c.rets[body]
	if !ok {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				rs = append(rs, n)
			}
			return true
		})
		c.rets[body] = rs
	}
	return rs
}

func contains(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}
