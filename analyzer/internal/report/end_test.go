package report_test

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/report"
)

// TestEnd: a diagnostic's range ends where the code it is about ends.
func TestEnd(t *testing.T) {
	const src = `package p

func f(s *S) {
	s.n = 0 //guard:ignore why
	s.mu.Lock()
	g(s.n)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{Fset: fset}
	pass.Files = append(pass.Files, f)
	at := func(s string, skip int) token.Pos {
		i := 0
		for range skip + 1 {
			j := strings.Index(src[i:], s)
			if j < 0 {
				t.Fatalf("no %q", s)
			}
			i += j + 1
		}
		return f.FileStart + token.Pos(i-1)
	}
	for _, c := range []struct {
		name     string
		pos      token.Pos
		wantText string
	}{
		{"the selector starting at s", at("s.n", 0), "s.n"},
		{"the call starting at s", at("s.mu", 0), "s.mu.Lock()"},
		{"the call around its parenthesis", at("(s.n)", 0), "g(s.n)"},
		{"the field name alone", at("n)", 0), "n"},
		{"the comment", at("//guard:ignore", 0), "//guard:ignore why"},
	} {
		end := report.End(pass, c.pos)
		if !end.IsValid() {
			t.Errorf("%s: no end", c.name)
			continue
		}
		got := src[fset.Position(c.pos).Offset:fset.Position(end).Offset]
		if c.name == "the call around its parenthesis" {
			got = src[fset.Position(at("g(", 0)).Offset:fset.Position(end).Offset]
		}
		if got != c.wantText {
			t.Errorf("%s: range %q, want %q", c.name, got, c.wantText)
		}
	}
	if end := report.End(pass, at("func f", 0)); end.IsValid() {
		t.Errorf("a declaration's keyword: end %v, want none (the position alone)", fset.Position(end))
	}
}
