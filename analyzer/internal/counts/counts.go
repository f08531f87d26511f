// Package counts recognises tests of a count against zero: a comparison
// that holds exactly when the count is zero, or exactly when it is not.
// The guardedby rule uses it for //guard:refcount deletes, lockorder for
// the destructor branch of a release of a reference.
package counts

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// ZeroTest reports whether cond compares a count (an expression isCount
// accepts) with an integer constant so that it holds exactly when the
// count is zero (whenZero true: == 0, <= 0, < 1) or exactly when it is not
// (whenZero false: != 0, > 0, >= 1), written either way round.
func ZeroTest(info *types.Info, cond ast.Expr, isCount func(ast.Expr) bool) (whenZero, ok bool) {
	b, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin {
		return false, false
	}
	x, y, op := b.X, b.Y, b.Op
	if isCount(y) { // 0 == n: put the count on the left
		x, y = y, x
		switch op {
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		case token.LEQ:
			op = token.GEQ
		case token.GEQ:
			op = token.LEQ
		}
	}
	if !isCount(x) {
		return false, false
	}
	tv, known := info.Types[y]
	if !known || tv.Value == nil {
		return false, false
	}
	k, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact {
		return false, false
	}
	switch {
	case op == token.EQL && k == 0, op == token.LEQ && k == 0, op == token.LSS && k == 1:
		return true, true
	case op == token.NEQ && k == 0, op == token.GTR && k == 0, op == token.GEQ && k == 1:
		return false, true
	}
	return false, false
}
