package report_test

import (
	"go/token"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/ignore"
	"github.com/guardvet/guardvet/analyzer/internal/report"
)

// files returns a FileSet with two files of ten 10-byte lines each. b.go
// is added first, so its positions are lower than a.go's although a.go
// comes first by name.
func files() (fset *token.FileSet, a, b *token.File) {
	fset = token.NewFileSet()
	lines := make([]int, 10)
	for i := range lines {
		lines[i] = i * 10
	}
	b = fset.AddFile("b.go", -1, 100)
	b.SetLines(lines)
	a = fset.AddFile("a.go", -1, 100)
	a.SetLines(lines)
	return fset, a, b
}

// line returns the position of column col on line n (1-based) of f.
func line(f *token.File, n, col int) token.Pos { return f.LineStart(n) + token.Pos(col-1) }

type sink struct{ got []analysis.Diagnostic }

func (s *sink) pass(fset *token.FileSet) *analysis.Pass {
	return &analysis.Pass{Fset: fset, Report: func(d analysis.Diagnostic) { s.got = append(s.got, d) }}
}

func (s *sink) messages() []string {
	var out []string
	for _, d := range s.got {
		out = append(out, d.Message)
	}
	return out
}

func TestReportDropsDiagnosticOnIgnoredLine(t *testing.T) {
	fset, a, b := files()
	ig := &ignore.Ignore{Pos: line(a, 1, 1), File: "a.go", Line: 3}
	other := &ignore.Ignore{Pos: line(a, 9, 1), File: "a.go", Line: 9}
	var s sink
	r := report.New(s.pass(fset), []*ignore.Ignore{ig, other}, "rule")
	r.Reportf(line(a, 3, 5), nil, "a3 ignored")
	r.Reportf(line(a, 4, 1), nil, "a4 kept")
	r.Reportf(line(b, 3, 5), nil, "b3 kept") // same line, other file
	used := r.Flush()
	if want := []string{"a4 kept", "b3 kept"}; !slices.Equal(s.messages(), want) {
		t.Errorf("reported %v, want %v", s.messages(), want)
	}
	if !used[ig.Pos] {
		t.Error("the line ignore that suppressed a diagnostic is not in Used")
	}
	if used[other.Pos] {
		t.Error("an ignore that suppressed nothing is in Used")
	}
	if len(used) != 1 {
		t.Errorf("Used = %v, want one entry", used)
	}
}

func TestReportDropsDiagnosticInsideIgnoredFunction(t *testing.T) {
	fset, a, _ := files()
	from, to := line(a, 2, 1), line(a, 5, 1)
	ig := &ignore.Ignore{Pos: line(a, 1, 1), From: from, To: to}
	var s sink
	r := report.New(s.pass(fset), []*ignore.Ignore{ig}, "rule")
	r.Reportf(from-1, nil, "before")
	r.Reportf(from, nil, "at From")
	r.Reportf(to-1, nil, "before To")
	r.Reportf(to, nil, "at To")
	used := r.Flush()
	if want := []string{"before", "at To"}; !slices.Equal(s.messages(), want) {
		t.Errorf("reported %v, want %v", s.messages(), want)
	}
	if !used[ig.Pos] {
		t.Error("the function ignore is not in Used")
	}
}

func TestFlushReportsInSourceOrder(t *testing.T) {
	fset, a, b := files()
	var s sink
	r := report.New(s.pass(fset), nil, "rule")
	r.Reportf(line(b, 1, 1), nil, "b1")
	r.Reportf(line(a, 5, 1), nil, "a5")
	r.Reportf(line(a, 2, 3), nil, "a2 z")
	r.Reportf(line(a, 2, 3), nil, "a2 m")
	r.Reportf(line(a, 2, 1), nil, "a2 col1")
	r.Flush()
	// a.go before b.go by name although b.go's positions are lower; then
	// by offset; then by message.
	want := []string{"a2 col1", "a2 m", "a2 z", "a5", "b1"}
	if !slices.Equal(s.messages(), want) {
		t.Errorf("reported %v, want %v", s.messages(), want)
	}
}

func TestFlushDropsDuplicates(t *testing.T) {
	fset, a, _ := files()
	var s sink
	r := report.New(s.pass(fset), nil, "rule")
	pos := line(a, 2, 1)
	r.Reportf(pos, nil, "same")
	r.Reportf(line(a, 3, 1), nil, "other")
	r.Reportf(pos, nil, "same")
	r.Reportf(pos, nil, "different")
	r.Flush()
	want := []string{"different", "same", "other"}
	if !slices.Equal(s.messages(), want) {
		t.Errorf("reported %v, want %v", s.messages(), want)
	}
}

func TestFlushEmptiesPending(t *testing.T) {
	fset, a, _ := files()
	var s sink
	r := report.New(s.pass(fset), nil, "rule")
	r.Reportf(line(a, 2, 1), nil, "once")
	r.Flush()
	r.Flush()
	if len(s.got) != 1 {
		t.Errorf("two flushes reported %v, want one diagnostic", s.messages())
	}
}

func TestReportSetsCategoryWhenEmpty(t *testing.T) {
	fset, a, _ := files()
	var s sink
	r := report.New(s.pass(fset), nil, "rule")
	r.Report(analysis.Diagnostic{Pos: line(a, 1, 1), Message: "plain"})
	r.Report(analysis.Diagnostic{Pos: line(a, 2, 1), Message: "own", Category: "mine"})
	r.Flush()
	if len(s.got) != 2 {
		t.Fatalf("reported %v, want two", s.messages())
	}
	if s.got[0].Category != "rule" {
		t.Errorf("empty Category became %q, want rule", s.got[0].Category)
	}
	if s.got[1].Category != "mine" {
		t.Errorf("Category mine became %q", s.got[1].Category)
	}
}

func TestReportfKeepsRelated(t *testing.T) {
	fset, a, _ := files()
	var s sink
	r := report.New(s.pass(fset), nil, "rule")
	rel := report.Related(line(a, 4, 1), "held here")
	r.Reportf(line(a, 2, 1), rel, "lock %s held %d times", "c.mu", 2)
	r.Flush()
	if len(s.got) != 1 {
		t.Fatalf("reported %v, want one", s.messages())
	}
	d := s.got[0]
	if d.Message != "lock c.mu held 2 times" {
		t.Errorf("Message = %q", d.Message)
	}
	if len(d.Related) != 1 || d.Related[0].Pos != line(a, 4, 1) || d.Related[0].Message != "held here" {
		t.Errorf("Related = %v", d.Related)
	}
}

func TestRelatedWithoutPosition(t *testing.T) {
	if got := report.Related(token.NoPos, "x"); got != nil {
		t.Errorf("Related(NoPos) = %v, want nil", got)
	}
}

func TestSilenceDropsEverything(t *testing.T) {
	fset, a, _ := files()
	ig := &ignore.Ignore{Pos: line(a, 1, 1), File: "a.go", Line: 3}
	var s sink
	r := report.New(s.pass(fset), []*ignore.Ignore{ig}, "rule")
	r.Reportf(line(a, 2, 1), nil, "before silence")
	r.Silence()
	r.Reportf(line(a, 4, 1), nil, "after silence")
	r.Reportf(line(a, 3, 1), nil, "ignored after silence")
	used := r.Flush()
	// What was pending before Silence is still flushed; nothing after is
	// collected, not even to mark an ignore used.
	if want := []string{"before silence"}; !slices.Equal(s.messages(), want) {
		t.Errorf("reported %v, want %v", s.messages(), want)
	}
	if used[ig.Pos] {
		t.Error("a silenced diagnostic marked its ignore used")
	}
}

func TestIgnored(t *testing.T) {
	fset, a, _ := files()
	ig := &ignore.Ignore{Pos: line(a, 1, 1), File: "a.go", Line: 3}
	var s sink
	r := report.New(s.pass(fset), []*ignore.Ignore{ig}, "rule")
	if r.Ignored(line(a, 4, 1)) {
		t.Error("Ignored on an uncovered line = true")
	}
	if used := r.Flush(); used[ig.Pos] {
		t.Error("an uncovered Ignored call marked the ignore used")
	}
	if !r.Ignored(line(a, 3, 7)) {
		t.Error("Ignored on the ignored line = false")
	}
	if used := r.Flush(); !used[ig.Pos] {
		t.Error("Ignored did not mark the ignore used")
	}
	if len(s.got) != 0 {
		t.Errorf("Ignored reported %v", s.messages())
	}
}
