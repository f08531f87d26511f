package ignore

import (
	"go/token"
	"testing"
)

func TestCovers(t *testing.T) {
	fset := token.NewFileSet()
	src := "package p\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n"
	f := fset.AddFile("p.go", -1, len(src))
	f.SetLinesForContent([]byte(src))
	line4, line5 := f.LineStart(4), f.LineStart(5)
	lineIgnore := &Ignore{File: "p.go", Line: 4}
	if !lineIgnore.Covers(fset, line4+2) || lineIgnore.Covers(fset, line5) {
		t.Error("a line ignore covers its line, and only it")
	}
	other := &Ignore{File: "q.go", Line: 4}
	if other.Covers(fset, line4) {
		t.Error("a line ignore of another file covers this one")
	}
	funcIgnore := &Ignore{From: f.LineStart(3), To: f.LineStart(6) + 1}
	if !funcIgnore.Covers(fset, line5) || funcIgnore.Covers(fset, f.LineStart(1)) || funcIgnore.Covers(fset, funcIgnore.To) {
		t.Error("a function ignore covers [From, To) and nothing else")
	}
}
