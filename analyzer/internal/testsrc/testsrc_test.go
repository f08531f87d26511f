package testsrc_test

import (
	"go/ast"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

func TestCheck(t *testing.T) {
	s := testsrc.Check(t, `package p

import "sync"

// T is documented.
type T struct{ mu sync.Mutex }

func (t *T) f() { t.mu.Lock() }
`)
	if s.Pkg.Name() != "p" || s.Pkg.Scope().Lookup("T") == nil {
		t.Fatalf("package %s has no T", s.Pkg.Name())
	}
	if len(s.File.Comments) == 0 {
		t.Error("comments were not kept")
	}
	var sel *ast.SelectorExpr
	ast.Inspect(s.File, func(n ast.Node) bool {
		if x, ok := n.(*ast.SelectorExpr); ok && x.Sel.Name == "mu" {
			sel = x
		}
		return true
	})
	if sel == nil || s.Info.Selections[sel] == nil || s.Info.Types[sel].Type == nil {
		t.Error("t.mu has no selection or type")
	}
}
