package races

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestKeptInResult checks which parameters a dependency's function keeps
// only in what it returns, read from its source.
func TestKeptInResult(t *testing.T) {
	cases := []struct {
		src    string
		param  string
		result int
		ok     bool
	}{
		// context.WithValue: compared with nil, then kept in the result.
		{`func f(parent, key, val any) any {
			if key == nil { panic("nil key") }
			return &valueCtx{parent, key, val}
		}`, "val", 0, true},
		// Keyed fields: a field's name is no use of the parameter.
		{`func f(val any) *T { return &T{val: val} }`, "val", 0, true},
		// In the second result.
		{`func f(v any) (error, T) { return nil, T{v} }`, "v", 1, true},
		// Not used at all.
		{`func f(v any) int { return 1 }`, "v", -1, true},
		// Handed to another call: it may keep it anywhere.
		{`func f(v any) *T { g(v); return &T{v} }`, "v", 0, false},
		// Stored into a package variable.
		{`func f(v any) *T { last = v; return &T{v} }`, "v", 0, false},
		// Returned itself, not in a literal the call makes.
		{`func f(v *T) *T { return v }`, "v", 0, false},
		// Kept in two results.
		{`func f(v any) (T, T) { return T{v}, T{v} }`, "v", 0, false},
		// Captured by a function literal.
		{`func f(v any) func() any { return func() any { return v } }`, "v", 0, false},
		// A field of it read: a use other than keeping it.
		{`func f(v *T) *T { return &T{v.x} }`, "v", 0, false},
	}
	for _, c := range cases {
		file, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\n"+c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		decl := file.Decls[0].(*ast.FuncDecl)
		r, ok := keptInResult(decl.Body, c.param)
		if ok != c.ok || ok && r != c.result {
			t.Errorf("%s\nparameter %s: got (%d, %v), want (%d, %v)", c.src, c.param, r, ok, c.result, c.ok)
		}
	}
}
