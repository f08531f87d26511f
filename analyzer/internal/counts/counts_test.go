package counts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/counts"
)

// conds lists the conditions under test, one per line, in the order of
// the table in TestZeroTest. n and c.refs are counts; m is not.
const src = `package p

type C struct{ refs int32 }

const zero = 0

func f(n, m int, u uint, c *C) []bool {
	return []bool{
		n == 0,
		n <= 0,
		n < 1,
		n != 0,
		n > 0,
		n >= 1,
		0 == n,
		0 >= n,
		1 > n,
		0 != n,
		0 < n,
		1 <= n,
		(n == 0),
		n == zero,
		c.refs == 0,
		1 <= c.refs,
		n == m,
		m == n,
		n == 2,
		n < 0,
		n > 1,
		n <= 1,
		n >= 0,
		1 < n,
		0 > n,
		m == 0,
		0 == m,
		n+0 == 0,
		!(n == 0),
		n == 0 && m == 0,
		u == 0,
	}
}
`

func TestZeroTest(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	var conds []ast.Expr
	ast.Inspect(file, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok {
			conds = lit.Elts
			return false
		}
		return true
	})
	isCount := func(e ast.Expr) bool {
		s := types.ExprString(e)
		return s == "n" || s == "c.refs" || s == "u"
	}
	cases := []struct {
		cond         string
		whenZero, ok bool
	}{
		{"n == 0", true, true},
		{"n <= 0", true, true},
		{"n < 1", true, true},
		{"n != 0", false, true},
		{"n > 0", false, true},
		{"n >= 1", false, true},
		{"0 == n", true, true},
		{"0 >= n", true, true},
		{"1 > n", true, true},
		{"0 != n", false, true},
		{"0 < n", false, true},
		{"1 <= n", false, true},
		{"(n == 0)", true, true},
		{"n == zero", true, true}, // a named constant
		{"c.refs == 0", true, true},
		{"1 <= c.refs", false, true},
		{"n == m", false, false}, // not a constant
		{"m == n", false, false},
		{"n == 2", false, false}, // another constant
		{"n < 0", false, false},
		{"n > 1", false, false},
		{"n <= 1", false, false},
		{"n >= 0", false, false},
		{"1 < n", false, false},
		{"0 > n", false, false},
		{"m == 0", false, false}, // not a count
		{"0 == m", false, false},
		{"n + 0 == 0", false, false},
		{"!(n == 0)", false, false}, // not a comparison
		{"n == 0 && m == 0", false, false},
		{"u == 0", true, true},
	}
	if len(conds) != len(cases) {
		t.Fatalf("%d conditions in the source, %d in the table", len(conds), len(cases))
	}
	for i, tc := range cases {
		cond := conds[i]
		if got := types.ExprString(cond); got != tc.cond {
			t.Fatalf("condition %d is %s, table says %s", i, got, tc.cond)
		}
		whenZero, ok := counts.ZeroTest(info, cond, isCount)
		if whenZero != tc.whenZero || ok != tc.ok {
			t.Errorf("ZeroTest(%s) = %v, %v; want %v, %v", tc.cond, whenZero, ok, tc.whenZero, tc.ok)
		}
	}
}
