package lockorder

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/counts"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Releasing a reference runs the object's destructor only when the count
// reaches zero: what a DecRef locks on that branch it locks only for the
// last reference. Its callers that hold another reference never run it,
// and gVisor releases references under locks on that understanding
// (overlay's RenameAt calls oldParent.DecRef holding the locks that
// dentry.DecRef's destructor takes, noting that oldParentVD still holds a
// reference). So the locks a function takes only on that branch are not
// in what it acquires for its callers: they make no order edge and no
// self-deadlock at a call. They still order what the destructor itself
// takes while holding them. The cost is recall: a caller that does drop
// the last reference under a lock the destructor orders the other way
// is not reported.
//
// The branch is recognised by its condition, not by names: a comparison
// with zero (== 0, <= 0, < 1, and their negations for the other branch)
// of a count just decremented: the result of x.Add(-n) or
// atomic.AddInt64(&x, -n) with a negative constant, a local holding one,
// or the result of a function of this package that returns one.

// lastRefOnly returns a test of whether the call or lock operation at a
// position of f's body runs only on a last-reference branch. It is nil
// when the body has none.
func (c *checker) lastRefOnly(f *lockstate.Func) func(token.Pos) bool {
	body := f.Decl.Body
	if f.Lit != nil {
		body = f.Lit.Body
	}
	if body == nil || f.Resolver == nil || !c.hasZeroTest(f, body) {
		return nil
	}
	g := f.CFG()
	if g == nil || len(g.Blocks) == 0 {
		return nil
	}
	reached := make([]bool, len(g.Blocks))
	work := []int32{0}
	reached[0] = true
	for len(work) > 0 {
		b := g.Blocks[work[len(work)-1]]
		work = work[:len(work)-1]
		zero := -1
		if len(b.Succs) == 2 && len(b.Nodes) > 0 {
			if e, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr); ok {
				if isZero, ok := c.zeroTest(f, e); ok {
					zero = 1
					if isZero {
						zero = 0
					}
				}
			}
		}
		for i, s := range b.Succs {
			if i == zero || reached[s.Index] {
				continue
			}
			reached[s.Index] = true
			work = append(work, s.Index)
		}
	}
	cut := map[token.Pos]bool{}
	for _, b := range g.Blocks {
		if reached[b.Index] {
			continue
		}
		for _, n := range b.Nodes {
			ast.Inspect(n, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.FuncLit:
					return false
				case *ast.CallExpr:
					cut[m.Pos()] = true
				}
				return true
			})
		}
	}
	if len(cut) == 0 {
		return nil
	}
	return func(p token.Pos) bool { return cut[p] }
}

// hasZeroTest is a cheap syntactic test for a condition zeroTest
// recognises, so that only such bodies get a control-flow graph.
func (c *checker) hasZeroTest(f *lockstate.Func, body *ast.BlockStmt) bool {
	return astq.Contains(body, func(n ast.Node) bool {
		e, ok := n.(*ast.BinaryExpr)
		if !ok {
			return false
		}
		_, zero := c.zeroTest(f, e)
		return zero
	})
}

// zeroTest reports whether e compares a just-decremented count with zero,
// and whether e is true when the count reached zero.
func (c *checker) zeroTest(f *lockstate.Func, e ast.Expr) (isZero, ok bool) {
	return counts.ZeroTest(c.pass.TypesInfo, e, func(x ast.Expr) bool { return c.decremented(f, x, 0) })
}

func (c *checker) constInt(e ast.Expr) (int64, bool) {
	tv := c.pass.TypesInfo.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// decremented reports whether e is the count a decrement just produced:
// x.Add(-n), atomic.AddInt64(&x, -n) (any sync/atomic Add function), a
// local defined once from one, or a call to a function of this package
// whose every return returns one.
func (c *checker) decremented(f *lockstate.Func, e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if def := f.Resolver.Def(e); def != nil {
			return c.decremented(f, def, depth+1)
		}
	case *ast.CallExpr:
		fn := typeutil.Callee(c.pass.TypesInfo, e)
		if fn == nil {
			return false
		}
		if b, isInt := c.pass.TypesInfo.TypeOf(e).Underlying().(*types.Basic); !isInt || b.Info()&types.IsInteger == 0 {
			return false
		}
		if fn.Name() == "Add" || (fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "Add")) {
			if len(e.Args) > 0 {
				k, ok := c.constInt(e.Args[len(e.Args)-1])
				return ok && k < 0
			}
			return false
		}
		if f, ok := fn.(*types.Func); ok && f.Pkg() == c.pass.Pkg {
			return c.returnsDecremented(f, depth+1)
		}
	}
	return false
}

// returnsDecremented reports whether every return of a function of this
// package returns a just-decremented count (gVisor's gofer
// decRefNoCaching: r := d.refs.Add(-1); ...; return r).
func (c *checker) returnsDecremented(fn *types.Func, depth int) bool {
	if v, ok := c.decrements[fn]; ok {
		return v
	}
	c.decrements[fn] = false // recursion
	v := lockstate.EveryReturn(c.funcs[fn], func(decl *lockstate.Func, r ast.Expr) bool { return c.decremented(decl, r, depth) })
	c.decrements[fn] = v
	return v
}
