package astq

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

const src = `package p

type Inner struct{ n int }

type Mid struct {
	*Inner
	m int
}

type Outer struct {
	Mid
	o int
}

func f(x *Outer) int { return ((x.n)) + x.m + x.o }
`

func check(t *testing.T) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	s := testsrc.Check(t, src)
	return s.Fset, s.File, s.Info
}

func selections(file *ast.File, info *types.Info) map[string]*types.Selection {
	out := map[string]*types.Selection{}
	ast.Inspect(file, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			out[types.ExprString(se)] = info.Selections[se]
		}
		return true
	})
	return out
}

func TestImplicitAndHolder(t *testing.T) {
	_, file, info := check(t)
	sels := selections(file, info)
	for _, tc := range []struct {
		sel     string
		implied []string
		holder  string
	}{
		{"x.n", []string{"Mid", "Inner"}, "p.Inner"},
		{"x.m", []string{"Mid"}, "p.Mid"},
		{"x.o", nil, "p.Outer"},
	} {
		sel := sels[tc.sel]
		if sel == nil {
			t.Fatalf("no selection %s", tc.sel)
		}
		steps, ok := Implicit(sel)
		if !ok {
			t.Fatalf("Implicit(%s) not ok", tc.sel)
		}
		var names []string
		for _, f := range steps {
			names = append(names, f.Name())
		}
		if len(names) != len(tc.implied) {
			t.Fatalf("Implicit(%s) = %v, want %v", tc.sel, names, tc.implied)
		}
		for i := range names {
			if names[i] != tc.implied[i] {
				t.Errorf("Implicit(%s) = %v, want %v", tc.sel, names, tc.implied)
			}
		}
		if got := types.TypeString(Holder(sel), nil); got != tc.holder {
			t.Errorf("Holder(%s) = %s, want %s", tc.sel, got, tc.holder)
		}
	}
	// *Inner is reached through a pointer: Fields follows it.
	if steps, _ := Implicit(sels["x.n"]); !IsPointer(steps[1].Type()) {
		t.Errorf("the Inner step of x.n should be a pointer field")
	}
}

func TestUpAndParent(t *testing.T) {
	_, file, _ := check(t)
	parents := NewSyntax([]*ast.File{file}).Tree(file)
	var xn ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok && types.ExprString(se) == "x.n" {
			xn = se
		}
		return true
	})
	p, child := parents.Up(xn)
	if _, ok := p.(*ast.BinaryExpr); !ok {
		t.Fatalf("Up(x.n) = %T, want the + around ((x.n))", p)
	}
	if _, ok := child.(*ast.ParenExpr); !ok {
		t.Errorf("Up(x.n) child = %T, want the outer parenthesis", child)
	}
	if parents.Parent(file) != nil {
		t.Errorf("the root has a parent")
	}
}

func TestDerefAndStructOf(t *testing.T) {
	st := types.NewStruct(nil, nil)
	ptr := types.NewPointer(st)
	if Deref(ptr) != types.Type(st) || Deref(st) != types.Type(st) {
		t.Error("Deref")
	}
	if _, ok := StructOf(ptr); !ok {
		t.Error("StructOf(*struct{})")
	}
	if _, ok := StructOf(types.Typ[types.Int]); ok {
		t.Error("StructOf(int)")
	}
	if IsPointer(nil) || IsPointer(st) || !IsPointer(ptr) {
		t.Error("IsPointer")
	}
	if Fields(types.Typ[types.Int], []int{0}) != nil {
		t.Error("Fields through a non-struct")
	}
}

func TestContains(t *testing.T) {
	s := testsrc.Check(t, `package p

func f(a, b int) func() int {
	_ = a + 1
	return func() int { return b }
}
`)
	fn := s.File.Decls[0].(*ast.FuncDecl)
	uses := func(name string) func(ast.Node) bool {
		return func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			return ok && id.Name == name && s.Info.Uses[id] != nil
		}
	}
	if !Contains(fn.Body, uses("a")) {
		t.Error("Contains(body, a) = false, want true: a is used in the body")
	}
	if Contains(fn.Body, uses("b")) {
		t.Error("Contains(body, b) = true, want false: b is used only inside the function literal")
	}
	calls := 0
	Contains(fn.Body, func(n ast.Node) bool { calls++; return true })
	if calls != 1 {
		t.Errorf("pred called %d times after it held, want it to stop at the first", calls)
	}
}

func TestStmtList(t *testing.T) {
	s := testsrc.Check(t, `package p

func f(x int, c chan int) {
	switch x {
	case 1:
		x++
		x--
	}
	select {
	case <-c:
		x = 2
	}
}
`)
	body := s.File.Decls[0].(*ast.FuncDecl).Body
	if list, ok := StmtList(body); !ok || len(list) != 2 {
		t.Errorf("StmtList(body) = %d statements, %v; want 2, true", len(list), ok)
	}
	cc := body.List[0].(*ast.SwitchStmt).Body.List[0]
	if list, ok := StmtList(cc); !ok || len(list) != 2 {
		t.Errorf("StmtList(case 1) = %d statements, %v; want 2, true", len(list), ok)
	}
	comm := body.List[1].(*ast.SelectStmt).Body.List[0]
	if list, ok := StmtList(comm); !ok || len(list) != 1 {
		t.Errorf("StmtList(case <-c) = %d statements, %v; want 1, true", len(list), ok)
	}
	if _, ok := StmtList(body.List[0]); ok {
		t.Error("StmtList(switch statement) ok = true, want false")
	}
}

func TestNameAndCalleeName(t *testing.T) {
	for _, tc := range []struct{ expr, name, callee string }{
		{"f(x)", "f", "f"},
		{"(x.f)(y)", "f", "f"},
		{"pkg.F(x)", "F", "F"},
		{"f[int](x)", "", "f"},
		{"pkg.F[int, string](x)", "", "F"},
		{"fs[0](x)", "", "fs"}, // syntax cannot tell an index from an instantiation: Uses[fs] is a *types.Var
		{"func() {}()", "", ""},
	} {
		e, err := parser.ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		call := e.(*ast.CallExpr)
		if got := identName(Name(call.Fun)); got != tc.name {
			t.Errorf("Name(%s) = %q, want %q", tc.expr, got, tc.name)
		}
		if got := identName(CalleeName(call)); got != tc.callee {
			t.Errorf("CalleeName(%s) = %q, want %q", tc.expr, got, tc.callee)
		}
	}
}

func identName(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}
