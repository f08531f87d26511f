package suite_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
	"github.com/guardvet/guardvet/analyzer/escape"
	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/lockorder"
	"github.com/guardvet/guardvet/analyzer/noblock"
)

// discard swallows analysistest's complaints about // want comments meant
// for another rule; the tests below look at the diagnostics themselves.
type discard struct{}

func (discard) Errorf(string, ...any) {}

var importers = []string{"importers/blank", "importers/use"}

// messages runs one rule over the importers fixture and returns its
// diagnostics as "file:line: message".
func messages(t *testing.T, a *analysis.Analyzer) []string {
	t.Helper()
	testdata := testdir.Path(t)
	var out []string
	for _, r := range analysistest.Run(discard{}, testdata, a, importers...) {
		if r.Err != nil {
			t.Fatalf("%s on %s: %v", a.Name, r.Pass.Pkg.Path(), r.Err)
		}
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message))
		}
	}
	return out
}

// TestImportersScope: packages without directives that import annotated
// ones are checked against the imported contracts (guardedby, whose
// // want comments are in the fixture) and by no other rule.
func TestImportersScope(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, importers...)
	for _, a := range []*analysis.Analyzer{lockorder.Analyzer, noblock.Analyzer, escape.Analyzer, checkthenact.Analyzer} {
		for _, m := range messages(t, a) {
			t.Errorf("%s reported in a package without directives: %s", a.Name, m)
		}
	}
}

// TestImportersAllRules: -config.allrules brings every rule back in
// those packages.
func TestImportersAllRules(t *testing.T) {
	for _, c := range []struct {
		a    *analysis.Analyzer
		want []string
	}{
		{guardedby.Analyzer, []string{
			"blank.go:32: s.mu.Unlock() but s.mu is not held here",
			"blank.go:39: return with s.mu still locked",
			"blank.go:50: s.mu.Lock() while s.mu is already locked",
			"blank.go:65: call to s.lock locks s.mu, which is already locked here",
			"use.go:75: p.mu.Unlock() but p.mu is not held here",
			"use.go:95: return with c.Mu still locked",
		}},
		{lockorder.Analyzer, []string{
			"blank.go:57: call to s.get locks s.mu, which is already held here",
			"blank.go:72: potential deadlock: server.other is acquired here (s.other) while server.mu is held (s.mu)",
			"use.go:81: call to p.size locks p.mu, which is already held here",
		}},
		{checkthenact.Analyzer, []string{
			"blank.go:90: check-then-act: s.cache.Store depends on an earlier s.cache.Load",
			"use.go:86: check-then-act: p.idle.Store",
			"use.go:120: check-then-act: c.State was read at line 116",
		}},
		{noblock.Analyzer, []string{"use.go:104: channel send can block while c.Mu is held"}},
		{escape.Analyzer, []string{"use.go:111: returns c.Cache, the guarded map itself"}},
	} {
		got := messages(t, testconfig.With(t, c.a, "allrules", "true"))
		for _, w := range c.want {
			found := false
			for _, m := range got {
				if strings.Contains(m, w) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s with -config.allrules: no diagnostic containing %q; got:\n%s", c.a.Name, w, strings.Join(got, "\n"))
			}
		}
	}
}
