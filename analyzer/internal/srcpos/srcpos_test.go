package srcpos_test

import (
	"fmt"
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

func TestLinePrefix(t *testing.T) {
	fset := token.NewFileSet()
	src := "package p\n\tx := 1 // c\n"
	f := fset.AddFile("p.go", -1, len(src))
	f.SetLinesForContent([]byte(src))
	read := func(name string) ([]byte, error) {
		if name != "p.go" {
			return nil, fmt.Errorf("no file %s", name)
		}
		return []byte(src), nil
	}
	pos := f.Pos(len("package p\n\tx := 1 "))
	if got, ok := srcpos.LinePrefix(fset, read, pos); !ok || got != "\tx := 1 " {
		t.Errorf("LinePrefix = %q, %v; want %q", got, ok, "\tx := 1 ")
	}
	if got, ok := srcpos.LinePrefix(fset, read, f.Pos(0)); !ok || got != "" {
		t.Errorf("LinePrefix at the start = %q, %v", got, ok)
	}
	if _, ok := srcpos.LinePrefix(fset, func(string) ([]byte, error) { return nil, fmt.Errorf("gone") }, pos); ok {
		t.Error("LinePrefix of an unreadable file is ok")
	}
}
