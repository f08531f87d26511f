package suite_test

import (
	"fmt"
	"go/types"
	"slices"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestEngineResultsReleased: with the options the standalone driver sets
// (lockstate.ReleaseEarly: -config.readers and -config.readers.deps as
// lockstate.Readers counts them, the packages checked in -config.roots),
// the engine drops each
// package's per-function results once the last rule has read them, in the
// packages checked and in their dependencies (where only the rules with
// facts run), and no rule sees them dropped: every fixture, with inference
// and the shared rule on so that every reader runs, gets the same
// diagnostics as with the results kept.
func TestEngineResultsReleased(t *testing.T) {
	base := testconfig.Config(t, "infer", "true", "shared", "true")
	if n, deps := lockstate.Readers(suite.Analyzers()); n != 7 || deps != 4 {
		t.Errorf("lockstate.Readers(suite.Analyzers()) = %d, %d; want the 7 rules that read the engine, 4 of them with facts", n, deps)
	}
	testdata := testdir.Path(t)
	pkgs := loadFixtures(t, testdata, append(slices.Clone(fixturesWithEveryRule), "guardinfer/...", "lockedconv/...", "shared/..."))
	var roots []*types.Package
	for _, p := range pkgs {
		roots = append(roots, p.Types)
	}
	// The checker keeps only the roots' results: the observer, a reader
	// with facts and so run in every package, dependencies included,
	// keeps each package's engine result for the test to look at.
	var (
		mu      sync.Mutex
		results []*lockstate.Result
	)
	observer := &analysis.Analyzer{
		Name:      "observer",
		Doc:       "keeps the engine's results for TestEngineResultsReleased",
		Requires:  []*analysis.Analyzer{lockstate.Analyzer},
		FactTypes: []analysis.Fact{(*observed)(nil)},
		Run: func(pass *analysis.Pass) (any, error) {
			r := lockstate.Of(pass)
			defer r.Done()
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
			return nil, nil
		},
	}
	analyzers := append(suite.Analyzers(), observer)
	run := func(release bool) (diags []string, kept, all int) {
		results = nil
		conf := base
		if release {
			var err error
			if conf, err = lockstate.ReleaseEarly(base, analyzers, roots); err != nil {
				t.Fatal(err)
			}
		}
		g, err := checker.Analyze(config.Bind(analyzers, conf), pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			for _, d := range act.Diagnostics {
				diags = append(diags, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
			}
		}
		for _, r := range results {
			if r.Funcs != nil {
				kept++
			}
		}
		slices.Sort(diags)
		return diags, kept, len(results)
	}
	want, kept, all := run(false)
	if kept == 0 || len(want) == 0 {
		t.Fatalf("without -config.readers: %d packages keep their results, %d diagnostics; want both above 0", kept, len(want))
	}
	if all <= len(pkgs) {
		t.Fatalf("the engine ran in %d packages, the fixtures are %d: want their dependencies too", all, len(pkgs))
	}
	got, kept, all := run(true)
	if kept != 0 {
		t.Errorf("with -config.readers: %d of %d packages still hold their per-function results", kept, all)
	}
	if !slices.Equal(got, want) {
		t.Errorf("dropping the results changed the diagnostics: %d with, %d without", len(got), len(want))
		for _, d := range got {
			if !slices.Contains(want, d) {
				t.Errorf("only when dropped: %s", d)
			}
		}
		for _, d := range want {
			if !slices.Contains(got, d) {
				t.Errorf("only when kept: %s", d)
			}
		}
	}
}

// observed is the observer's fact type: having one makes the checker run
// it in dependencies too. It is never exported.
type observed struct{}

func (*observed) AFact() {}
