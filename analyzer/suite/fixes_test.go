package suite_test

import (
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

// TestSuggestedFixesAddNoDiagnostic applies every fix the suite offers on
// the fixtures (the first fix of each diagnostic, skipping edits that
// overlap one already taken), then checks the fixed tree with every rule
// again: it must still compile and be gofmt-clean, and no rule may report
// anything it did not report before, counted per file, rule and message.
// A fix that trades one finding for another (a getter that locks a lock
// held at the site) fails here.
func TestSuggestedFixesAddNoDiagnostic(t *testing.T) {
	testdata := testdir.Path(t)
	_, before := analyzeFixtures(t, testdata, fixturesWithEveryRule)

	type edit struct {
		start, end int
		text       string
	}
	edits := map[string][]edit{} // file (relative to testdata) -> edits
	fixed := 0
	for _, act := range before.Roots {
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			fix := d.SuggestedFixes[0]
			var es []edit
			var file string
			for _, te := range fix.TextEdits {
				p := fset.Position(te.Pos)
				end := p.Offset
				if te.End.IsValid() {
					end = fset.Position(te.End).Offset
				}
				file = p.Filename
				es = append(es, edit{p.Offset, end, string(te.NewText)})
			}
			rel, err := filepath.Rel(testdata, file)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("fix for %q edits %s, outside the fixtures", d.Message, file)
			}
			if overlaps := func() bool {
				for _, e := range es {
					for _, o := range edits[rel] {
						if e.start < o.end && o.start < e.end || e.start == o.start {
							return true
						}
					}
				}
				return false
			}(); overlaps {
				continue
			}
			edits[rel] = append(edits[rel], es...)
			fixed++
		}
	}
	if fixed == 0 {
		t.Fatal("no suggested fix on any fixture: the test checks nothing")
	}

	// A copy of the fixture tree with the fixes applied.
	tmp := t.TempDir()
	err := filepath.Walk(filepath.Join(testdata, "src"), func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(testdata, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if es := edits[rel]; len(es) > 0 {
			sort.Slice(es, func(i, j int) bool { return es[i].start > es[j].start })
			for _, e := range es {
				src = append(src[:e.start:e.start], append([]byte(e.text), src[e.end:]...)...)
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Errorf("%s after its fixes does not parse: %v", rel, err)
			} else if string(formatted) != string(src) {
				t.Errorf("%s after its fixes is not gofmt-clean", rel)
			}
		}
		return os.WriteFile(filepath.Join(tmp, rel), src, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, after := analyzeFixtures(t, tmp, fixturesWithEveryRule)

	count := func(g *checker.Graph, root string) map[string]int {
		n := map[string]int{}
		for _, act := range g.Roots {
			for _, d := range act.Diagnostics {
				rel, _ := filepath.Rel(root, act.Package.Fset.Position(d.Pos).Filename)
				n[rel+": "+act.Analyzer.Name+": "+d.Message]++
			}
		}
		return n
	}
	was, now := count(before, testdata), count(after, tmp)
	var added []string
	for k, c := range now {
		if c > was[k] {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	for _, k := range added {
		t.Errorf("after applying the suggested fixes, new diagnostic: %s", k)
	}
	t.Logf("%d fixes applied across %d files", fixed, len(edits))
}
