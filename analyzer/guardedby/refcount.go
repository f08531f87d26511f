package guardedby

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/guardvet/guardvet/analyzer/internal/counts"
)

// A map whose entries are shared by several goroutines at once (a map of
// per-key locks, handed out to every goroutine working on key k) may only
// lose an entry when nobody uses it any more; otherwise the next goroutine
// to look k up creates a fresh entry and works alongside the one still
// using the old. Code counts the users in a second map and removes the
// entry when the count drops to zero. //guard:refcount C on the map says
// so, and refcounts reports a delete(m, k) that is not made under a check
// that C[k] is zero, for the same object and key:
//
//   - inside if C[k] == 0 { ... } (also <= 0, < 1, 0 == C[k], and a
//     conjunct of &&), or in the else branch of if C[k] > 0 (!= 0, >= 1);
//   - after a guard clause, if C[k] > 0 { return } (any branch that does
//     not fall through), earlier in an enclosing block;
//   - through a local holding the count, n := C[k] or n := C[k] - 1.
//
// Whether the check is made under the lock is guardedby's ordinary
// business: both maps are usually //guard:by the same lock.
func (c *checker) refcounts() {
	if !c.dirs.AnyRefcount() {
		return
	}
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			if b, ok := info.Uses[astIdent(call.Fun)].(*types.Builtin); !ok || b.Name() != "delete" {
				return true
			}
			sel, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			field, _ := info.Uses[sel.Sel].(*types.Var)
			g := c.dirs.Guard(field)
			if g == nil || g.Refcount == "" {
				return true
			}
			rc := refcheck{info: info, base: sel.X, count: g.Refcount, key: call.Args[1]}
			path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
			for _, n := range path {
				if fl, ok := n.(*ast.FuncLit); ok {
					rc.body = fl.Body
					break
				}
				if fd, ok := n.(*ast.FuncDecl); ok {
					rc.body = fd.Body
					break
				}
			}
			if rc.checked(path) {
				return true
			}
			countText := types.ExprString(sel.X) + "." + g.Refcount + "[" + types.ExprString(call.Args[1]) + "]"
			c.rep.Reportf(call.Pos(), nil,
				"%s is not made under a check that %s is zero: //guard:refcount %s on %s says an entry is removed only when nothing uses it; delete it inside if %s == 0, after the count is decremented",
				types.ExprString(call), countText, g.Refcount, field.Name(), countText)
			return true
		})
	}
}

func astIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// refcheck looks for the zero test of base.count[key] above a delete.
type refcheck struct {
	info  *types.Info
	base  ast.Expr
	count string
	key   ast.Expr
	body  ast.Node // the enclosing function's body, for locals
}

// checked reports whether the node at the bottom of path (innermost first)
// runs only when the count is zero.
func (rc refcheck) checked(path []ast.Node) bool {
	for i := 1; i < len(path); i++ {
		child := path[i-1]
		switch p := path[i].(type) {
		case *ast.IfStmt:
			if child == p.Body && rc.conjunct(p.Cond, true) {
				return true
			}
			if child == p.Else && rc.test(p.Cond, false) {
				return true
			}
		case *ast.BlockStmt:
			if rc.guardClause(p.List, child) {
				return true
			}
		case *ast.CaseClause:
			if rc.guardClause(p.Body, child) {
				return true
			}
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
	}
	return false
}

// guardClause reports whether a statement of list before child is
// if <count is not zero> { ...; return }.
func (rc refcheck) guardClause(list []ast.Stmt, child ast.Node) bool {
	for _, st := range list {
		if st == child {
			return false
		}
		ifs, ok := st.(*ast.IfStmt)
		if ok && ifs.Else == nil && rc.test(ifs.Cond, false) && terminates(ifs.Body) {
			return true
		}
	}
	return false
}

// terminates reports whether a block ends in a statement that does not
// fall through.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch st := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.BREAK || st.Tok == token.CONTINUE || st.Tok == token.GOTO
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id := astIdent(call.Fun); id != nil && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// conjunct reports whether cond, or one operand of a chain of &&, is the
// test of the count being zero (zero true) or not zero (zero false).
func (rc refcheck) conjunct(cond ast.Expr, zero bool) bool {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return rc.conjunct(b.X, zero) || rc.conjunct(b.Y, zero)
	}
	return rc.test(cond, zero)
}

// test reports whether cond is exactly a comparison of the count with a
// constant that holds only when the count is zero (zero true), or only
// when it is not (zero false).
func (rc refcheck) test(cond ast.Expr, zero bool) bool {
	whenZero, ok := counts.ZeroTest(rc.info, cond, rc.isCount)
	return ok && whenZero == zero
}

// isCount reports whether e is base.count[key], or a local defined as that
// (possibly minus one).
func (rc refcheck) isCount(e ast.Expr) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		v, _ := rc.info.Uses[id].(*types.Var)
		if v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return false
		}
		def := rc.definition(v)
		if b, ok := ast.Unparen(def).(*ast.BinaryExpr); ok && b.Op == token.SUB {
			if tv, ok := rc.info.Types[b.Y]; ok && tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1)) {
				def = b.X
			}
		}
		return def != nil && rc.isCountIndex(def)
	}
	return rc.isCountIndex(e)
}

func (rc refcheck) isCountIndex(e ast.Expr) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == rc.count && sameExpr(rc.info, sel.X, rc.base) && sameExpr(rc.info, ix.Index, rc.key)
}

// definition returns the expression a local was defined with (v := e, or
// var v = e) in the enclosing function, when nothing assigns it again.
func (rc refcheck) definition(v *types.Var) ast.Expr {
	if rc.body == nil {
		return nil
	}
	var def ast.Expr
	again := false
	ast.Inspect(rc.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok {
					continue
				}
				switch {
				case rc.info.Defs[id] == v && len(n.Lhs) == len(n.Rhs):
					def = n.Rhs[i]
				case rc.info.Defs[id] == v, rc.info.Uses[id] == v:
					again = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if rc.info.Defs[id] == v && len(n.Names) == len(n.Values) {
					def = n.Values[i]
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && rc.info.Uses[id] == v {
				again = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && rc.info.Uses[id] == v {
				again = true
			}
		}
		return true
	})
	if again {
		return nil
	}
	return def
}

// sameExpr reports whether a and b are the same expression over the same
// variables (t.refs and t.locks share t; a key id is the same variable),
// or equal constants.
func sameExpr(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if ta, tb := info.Types[a], info.Types[b]; ta.Value != nil || tb.Value != nil {
		return ta.Value != nil && tb.Value != nil && constant.Compare(ta.Value, token.EQL, tb.Value)
	}
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		return ok && info.Uses[x] != nil && info.Uses[x] == info.Uses[y]
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && x.Sel.Name == y.Sel.Name && info.Uses[x.Sel] == info.Uses[y.Sel] && sameExpr(info, x.X, y.X)
	case *ast.StarExpr:
		y, ok := b.(*ast.StarExpr)
		return ok && sameExpr(info, x.X, y.X)
	}
	return false
}
