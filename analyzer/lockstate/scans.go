package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// Syntax scans made once per body before the dataflow: references into
// guarded fields, closures bound to locals, range and select shapes, and
// channel operations.

// scanReferences finds locals that take a reference into a guarded field:
// p := &x.f, or m := x.m where the field is a map or slice, whose contents
// the guard covers. Their uses are recorded for the escape rule.
func (fa *funcAnalysis) scanReferences() {
	fa.watched = map[*types.Var]ast.Expr{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			id, ok := as.Lhs[i].(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := fa.info.Defs[id].(*types.Var)
			e := ast.Unparen(rhs)
			addr := false
			if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
				e, addr = ast.Unparen(u.X), true
			}
			sel, ok := e.(*ast.SelectorExpr)
			if !ok || v == nil {
				continue
			}
			field, _ := fa.info.Uses[sel.Sel].(*types.Var)
			if g := fa.a.dirs.Guard(field); g == nil || len(g.By) == 0 {
				continue
			}
			if addr || astq.IsContainer(field.Type()) {
				fa.watched[v] = sel
			}
		}
		return true
	})
}

// scanLocalLits finds closures bound to a local variable that is never
// reassigned and only ever called: f := func() { ... }; ...; f(). Such a
// closure runs where it is called, with the caller's locks, like a closure
// called in place.
func (fa *funcAnalysis) scanLocalLits() {
	fa.localLits, fa.isLocalLit = map[*types.Var]*ast.FuncLit{}, map[*ast.FuncLit]bool{}
	hasLit := false
	ast.Inspect(fa.body, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		hasLit = hasLit || lit
		return !hasLit
	})
	if !hasLit {
		return // most bodies: no closure, and nothing to count
	}
	uses, calls := map[*types.Var]int{}, map[*types.Var]int{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := fa.info.Uses[n].(*types.Var); ok {
				uses[v]++
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if v, ok := fa.info.Uses[id].(*types.Var); ok {
					calls[v]++
				}
			}
		}
		return true
	})
	ast.Inspect(fa.body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := fa.info.Defs[id].(*types.Var)
		if !ok || uses[v] == 0 || uses[v] != calls[v] {
			return true
		}
		if lit, ok := ast.Unparen(fa.res.Def(id)).(*ast.FuncLit); ok {
			fa.localLits[v], fa.isLocalLit[lit] = lit, true
		}
		return true
	})
}

// localLit returns the closure a called identifier is bound to, if any.
func (fa *funcAnalysis) localLit(fun ast.Expr) *ast.FuncLit {
	if id, ok := ast.Unparen(fun).(*ast.Ident); ok {
		if v, ok := fa.info.Uses[id].(*types.Var); ok {
			return fa.localLits[v]
		}
	}
	return nil
}

func (fa *funcAnalysis) scanRanges() {
	fa.rangeAssign = map[ast.Expr]bool{}
	fa.commSelect = map[ast.Node]*ast.SelectStmt{}
	fa.rangeChan = map[ast.Expr]*ast.RangeStmt{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					fa.rangeAssign[e] = n.Tok == token.ASSIGN
				}
			}
			if _, ok := fa.info.TypeOf(n.X).Underlying().(*types.Chan); ok {
				fa.rangeChan[n.X] = n
			}
		case *ast.SelectStmt:
			// The channel operations of a select's cases are one operation:
			// the select, which blocks unless it has a default case.
			for _, cc := range n.Body.List {
				if comm := cc.(*ast.CommClause).Comm; comm != nil {
					if as, ok := comm.(*ast.AssignStmt); ok && len(as.Lhs) > 0 {
						fa.rangeAssign[as.Lhs[0]] = false
					}
					ast.Inspect(comm, func(m ast.Node) bool {
						switch m.(type) {
						case *ast.SendStmt, *ast.UnaryExpr:
							fa.commSelect[m] = n
						}
						return true
					})
				}
			}
		}
		return true
	})
}

// chanOp records a channel operation (or the select it is part of) with
// the lock state there.
func (fa *funcAnalysis) chanOp(n ast.Node, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	op := &ChanOp{Node: n, State: s.snapshot()}
	switch n.(type) {
	case *ast.SendStmt:
		op.Kind = Send
	case *ast.UnaryExpr:
		op.Kind = Receive
	case *ast.RangeStmt:
		op.Kind = RangeReceive
	}
	if sel := fa.commSelect[n]; sel != nil {
		for _, prev := range fa.rec.ChanOps {
			if prev.Node == sel {
				return // one record per select
			}
		}
		op.Node, op.Kind = sel, Select
		for _, cc := range sel.Body.List {
			if cc.(*ast.CommClause).Comm == nil {
				op.NonBlocking = true // has a default case
			}
		}
	}
	fa.rec.ChanOps = append(fa.rec.ChanOps, op)
}
