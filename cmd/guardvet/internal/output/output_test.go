package output

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// finding is a finding of rule at line:col of file, in fset, with the
// related positions given as line numbers of the same file.
func finding(fset *token.FileSet, tf *token.File, rule *analysis.Analyzer, line, col int, msg string, related ...int) Finding {
	pos := tf.LineStart(line) + token.Pos(col-1)
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	for _, l := range related {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: tf.LineStart(l), Message: "locked here"})
	}
	return Finding{Analyzer: rule, Diag: d, Fset: fset, Posn: fset.Position(pos)}
}

// newFile adds a file of 10 lines of 10 bytes to fset.
func newFile(fset *token.FileSet, name string) *token.File {
	tf := fset.AddFile(name, -1, 100)
	lines := make([]int, 10)
	for i := range lines {
		lines[i] = 10 * i
	}
	tf.SetLines(lines)
	return tf
}

// TestPrintTextRelated: a finding is one line, "file:line:col: message
// (rule)", with its file relative to the working directory, and each
// related position a line under it, indented by a tab; a file outside
// the working directory keeps its absolute path.
func TestPrintTextRelated(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	below := newFile(fset, filepath.Join(wd, "pkg", "a.go"))
	outside := newFile(fset, filepath.Join(filepath.Dir(wd), "elsewhere", "b.go"))
	rule := &analysis.Analyzer{Name: "lockorder"}
	var buf bytes.Buffer
	PrintText(&buf, []Finding{
		finding(fset, below, rule, 4, 2, "potential deadlock", 3),
		finding(fset, outside, rule, 2, 1, "no related position"),
	})
	want := "pkg/a.go:4:2: potential deadlock (lockorder)\n" +
		"\tpkg/a.go:3:1: locked here\n" +
		filepath.Join(filepath.Dir(wd), "elsewhere", "b.go") + ":2:1: no related position (lockorder)\n"
	if got := buf.String(); got != filepath.FromSlash(want) {
		t.Errorf("PrintText:\n%s\nwant\n%s", got, want)
	}
}

// TestSortOrderAndVariants: findings sort by file, line, column and rule;
// a test variant's finding where its package has one of the same rule
// is dropped, and an exact repeat is reported once.
func TestSortOrderAndVariants(t *testing.T) {
	fset := token.NewFileSet()
	a, b := newFile(fset, "/m/a.go"), newFile(fset, "/m/b.go")
	g, l := &analysis.Analyzer{Name: "guardedby"}, &analysis.Analyzer{Name: "lockorder"}
	variant := finding(fset, a, g, 2, 1, "counted with the tests")
	variant.Variant = true
	onlyVariant := finding(fset, a, l, 5, 1, "in the test variant only")
	onlyVariant.Variant = true
	got := Sort([]Finding{
		finding(fset, b, g, 1, 1, "b"),
		variant,
		finding(fset, a, l, 2, 1, "other rule"),
		finding(fset, a, g, 2, 1, "in the package"),
		finding(fset, a, g, 2, 1, "in the package"),
		onlyVariant,
	})
	var lines []string
	for _, f := range got {
		lines = append(lines, f.Posn.String()+" "+f.Analyzer.Name+" "+f.Diag.Message)
	}
	want := []string{
		"/m/a.go:2:1 guardedby in the package",
		"/m/a.go:2:1 lockorder other rule",
		"/m/a.go:5:1 lockorder in the test variant only",
		"/m/b.go:1:1 guardedby b",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sort:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestResultKeep: Keep keeps the findings it is told to and, in the
// -json trees, their diagnostics; an analyzer's error stays, and a
// package left with nothing is dropped.
func TestResultKeep(t *testing.T) {
	fset := token.NewFileSet()
	a := newFile(fset, "/m/a.go")
	g := &analysis.Analyzer{Name: "guardedby"}
	kept, dropped := finding(fset, a, g, 2, 1, "kept"), finding(fset, a, g, 3, 1, "dropped")
	tree := JSONTree{
		"m":       {"guardedby": json.RawMessage(`[{"posn":"/m/a.go:2:1","message":"kept"},{"posn":"/m/a.go:3:1","message":"dropped"}]`)},
		"m/other": {"guardedby": json.RawMessage(`[{"posn":"/m/a.go:3:1","message":"dropped"}]`)},
		"m/bad":   {"lockorder": json.RawMessage(`{"error":"boom"}`)},
	}
	res := Result{Findings: []Finding{kept, dropped}, Trees: []JSONTree{tree}}.Keep(func(f Finding) bool { return f.Diag.Message == "kept" })
	if len(res.Findings) != 1 || res.Findings[0].Diag.Message != "kept" {
		t.Errorf("findings kept: %+v", res.Findings)
	}
	got, err := json.Marshal(res.Trees)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"m":{"guardedby":[{"posn":"/m/a.go:2:1","message":"kept"}]},"m/bad":{"lockorder":{"error":"boom"}}}]`
	if string(got) != want {
		t.Errorf("trees kept:\n%s\nwant\n%s", got, want)
	}
}

// TestApplyFixesDiff: -diff prints the fixed file as a unified diff and
// leaves it alone; overlapping edits are an error naming the file.
func TestApplyFixesDiff(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.go")
	src := "package a\n\nvar x = 1\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLinesForContent([]byte(src))
	at := func(off int) token.Pos { return tf.Pos(off) }
	edit := func(start, end int, text string) Finding {
		fix := analysis.SuggestedFix{Message: "fix", TextEdits: []analysis.TextEdit{{Pos: at(start), End: at(end), NewText: []byte(text)}}}
		return Finding{Analyzer: &analysis.Analyzer{Name: "r"}, Diag: analysis.Diagnostic{Pos: at(start), SuggestedFixes: []analysis.SuggestedFix{fix}}, Fset: fset}
	}
	var buf bytes.Buffer
	n, err := ApplyFixes([]Finding{edit(19, 20, "2"), {Analyzer: &analysis.Analyzer{Name: "r"}, Fset: fset}}, true, &buf)
	if err != nil || n != 1 {
		t.Fatalf("ApplyFixes: %d fixed, %v; want 1", n, err)
	}
	if out := buf.String(); !strings.Contains(out, "-var x = 1\n+var x = 2\n") || !strings.Contains(out, " (old)") {
		t.Errorf("diff:\n%s", out)
	}
	if data, _ := os.ReadFile(name); string(data) != src {
		t.Errorf("-diff changed the file:\n%s", data)
	}
	if _, err := ApplyFixes([]Finding{edit(15, 20, "y = 2"), edit(19, 20, "3")}, true, &buf); err == nil || !strings.Contains(err.Error(), "a.go") || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping edits: %v; want an error naming the file", err)
	}
}
