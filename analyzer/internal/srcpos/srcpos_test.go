package srcpos_test

import (
	"go/token"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
)

// TestLessIgnoresFileSetOrder: b.go added before a.go still sorts after it.
func TestLessIgnoresFileSetOrder(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 100)
	a := fset.AddFile("a.go", -1, 100)
	pb, pa := b.Pos(10), a.Pos(50)
	if !srcpos.Less(fset, pa, pb) || srcpos.Less(fset, pb, pa) {
		t.Errorf("a.go:50 should come before b.go:10 whatever the order they were added in")
	}
	if !srcpos.Less(fset, a.Pos(1), a.Pos(2)) || srcpos.Less(fset, a.Pos(2), a.Pos(1)) {
		t.Errorf("within a file, by offset")
	}
}
