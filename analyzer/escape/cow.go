package escape

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// copyOnWrite reports whether the package never writes the backing array
// or the buckets of field after storing them: every write replaces the
// whole value (x.f = fresh, x.f = nil), and no element is written, nothing
// is appended to x.f in place, sorted, deleted or cleared, also through a
// local copy. Such a value, once handed out, is never changed again by its
// owner, so returning it, or using a copy after the lock is released,
// shares nothing that can change (without -config.strict).
//
// Appending to the field itself (x.f = append(x.f, v)) is not copy-on-write
// here: it writes the spare capacity that every handed-out copy shares, and
// a caller appending to its copy writes the same memory.
func (sn *snapshots) copyOnWrite(field *types.Var) bool {
	if sn.cow == nil {
		sn.cow = &snapshots{pass: sn.pass, dirs: sn.dirs, syntax: sn.syntax, done: map[*types.Var]bool{}, handOut: true}
	}
	return sn.cow.unshared(field)
}

// knownEmpty reports whether the local variable named by e holds nil
// wherever e is evaluated: an earlier statement of an enclosing block left
// the function when it was not (if v != nil { return v }), and since that
// statement v is only ever given what appending to it returns. Appending
// to it then allocates a new backing array, shared with nothing.
func (sn *snapshots) knownEmpty(parents *astq.Tree, e ast.Node) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := sn.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	for n, parent := range parents.Ancestry(id) {
		if _, ok := n.(*ast.FuncDecl); ok {
			return false
		}
		block, ok := parent.(*ast.BlockStmt)
		if !ok {
			continue
		}
		for i, s := range block.List {
			if s == n {
				break
			}
			if sn.exitsUnlessEmpty(s, v) {
				return sn.onlyAppended(block.List[i+1:], v)
			}
		}
	}
	return false
}

// exitsUnlessEmpty reports whether s is if v != nil { ...; return }. (A
// test of len(v) is not enough: an empty slice may still share the
// field's spare capacity, and appending to it writes there.)
func (sn *snapshots) exitsUnlessEmpty(s ast.Stmt, v *types.Var) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil || len(is.Body.List) == 0 {
		return false
	}
	if _, ok := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt); !ok {
		return false
	}
	be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	return ok && be.Op == token.NEQ && sn.isVar(be.X, v) && isNil(sn.pass.TypesInfo, be.Y)
}

// onlyAppended reports whether the statements give v no value but what
// appending to v returns, and never take its address.
func (sn *snapshots) onlyAppended(stmts []ast.Stmt, v *types.Var) bool {
	ok := true
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.AND && sn.isVar(n.X, v) {
					ok = false
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if !sn.isVar(lhs, v) {
						continue
					}
					if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN || !sn.appendTo(n.Rhs[i], v) {
						ok = false
					}
				}
			}
			return ok
		})
	}
	return ok
}

// appendTo reports whether e is append(v, ...).
func (sn *snapshots) appendTo(e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || !sn.isVar(call.Args[0], v) {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := sn.pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == "append"
}

func (sn *snapshots) isVar(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && sn.pass.TypesInfo.ObjectOf(id) == types.Object(v)
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	return ok && tv.IsNil()
}

// emptyWhereReturned reports whether the guarded map or slice e, returned
// by ret, is nil there: ret is in the body of if e == nil, or in the else
// of if e != nil, and nothing in that branch stores to e before it. A nil
// value shares nothing. (An empty one may: a map with no entries is still
// the field's map, and an empty slice may have the field's spare
// capacity.)
func emptyWhereReturned(info *types.Info, parents *astq.Tree, ret *ast.ReturnStmt, e ast.Expr) bool {
	want := types.ExprString(e)
	for n, parent := range parents.Ancestry(ret) {
		is, ok := parent.(*ast.IfStmt)
		if !ok || is.Init != nil {
			continue
		}
		be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || (be.Op != token.EQL && be.Op != token.NEQ) || !isNil(info, be.Y) || types.ExprString(ast.Unparen(be.X)) != want {
			continue
		}
		branch := ast.Node(is.Body)
		if be.Op == token.NEQ {
			branch = is.Else
		}
		return n == branch && !storedBefore(branch, ret.Pos(), want)
	}
	return false
}

// storedBefore reports whether an assignment in n before pos stores to the
// expression spelt want.
func storedBefore(n ast.Node, pos token.Pos, want string) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if as, ok := m.(*ast.AssignStmt); ok && as.Pos() < pos {
			for _, lhs := range as.Lhs {
				if types.ExprString(ast.Unparen(lhs)) == want {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// storesVisited reports whether lhs names a field or variable whose uses
// are being checked already.
func (sn *snapshots) storesVisited(lhs ast.Expr) bool {
	id := astq.Name(lhs)
	if id == nil {
		return false
	}
	obj := sn.pass.TypesInfo.ObjectOf(id)
	if v, ok := obj.(*types.Var); ok {
		obj = v.Origin()
	}
	return obj != nil && sn.visited[obj]
}
