package runcache

import (
	"crypto/sha256"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// TestEntryReplay: a finding stored as a cache entry replays with the
// same positions, down to its related information and its fix's edits,
// while its file is unchanged; once the file changes, the entry is a
// miss.
func TestEntryReplay(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.go")
	src := []byte("package a\n\nfunc f() {\n\tmu.Lock()\n\tx++\n}\n")
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLinesForContent(src)
	rule := &analysis.Analyzer{Name: "guardedby"}
	at := func(line, col int) token.Pos { return tf.LineStart(line) + token.Pos(col-1) }
	d := analysis.Diagnostic{Pos: at(5, 2), End: at(5, 5), Category: "guardedby", Message: "x written while mu is not held",
		Related:        []analysis.RelatedInformation{{Pos: at(4, 2), Message: "locked here"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: "hold mu", TextEdits: []analysis.TextEdit{{Pos: at(5, 2), End: at(5, 2), NewText: []byte("mu.Lock()\n")}}}}}
	f := output.Finding{Analyzer: rule, Diag: d, Fset: fset, Posn: fset.Position(d.Pos), Variant: true}

	en := newEntryEncoder(map[string][sha256.Size]byte{name: sha256.Sum256(src)})
	en.add(f)
	if !en.ok {
		t.Fatal("the finding cannot be kept as offsets")
	}
	data, err := json.Marshal(en.e)
	if err != nil {
		t.Fatal(err)
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	got, ok := newReplayer([]*analysis.Analyzer{rule}).findings(&e)
	if !ok || len(got) != 1 {
		t.Fatalf("replay: %d findings, ok %v", len(got), ok)
	}
	g := got[0]
	pos := func(f output.Finding, p token.Pos) string { return f.Fset.Position(p).String() }
	if g.Analyzer != rule || g.Posn != f.Posn || !g.Variant || g.Diag.Message != d.Message || g.Diag.Category != d.Category ||
		pos(g, g.Diag.End) != pos(f, d.End) || pos(g, g.Diag.Related[0].Pos) != pos(f, d.Related[0].Pos) ||
		g.Diag.Related[0].End.IsValid() {
		t.Errorf("replayed %+v\nwant %+v", g, f)
	}
	edit := g.Diag.SuggestedFixes[0].TextEdits[0]
	if pos(g, edit.Pos) != pos(f, at(5, 2)) || string(edit.NewText) != "mu.Lock()\n" {
		t.Errorf("replayed fix %+v", g.Diag.SuggestedFixes)
	}

	if err := os.WriteFile(name, append([]byte("// edited\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := newReplayer([]*analysis.Analyzer{rule}).findings(&e); ok {
		t.Errorf("replayed after the file changed")
	}
}
