package suite_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestEngineResultsReleased: with -config.readers set as the standalone
// driver sets it (lockstate.Readers), the engine drops each package's
// per-function results once the last rule has read them, and no rule sees
// them dropped: every fixture, with inference and the shared rule on so
// that every reader runs, gets the same diagnostics as with the results
// kept.
func TestEngineResultsReleased(t *testing.T) {
	for _, opt := range []string{"infer", "shared"} {
		restore, err := config.Set(opt, "true")
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
	}
	if n := lockstate.Readers(suite.Analyzers()); n != 7 {
		t.Errorf("lockstate.Readers(suite.Analyzers()) = %d, want the 7 rules that read the engine", n)
	}
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := loadFixtures(t, testdata, append(slices.Clone(fixturesWithEveryRule), "guardinfer/...", "lockedconv/...", "shared/..."))
	// lockstate as a root too: the checker keeps roots' results, so the
	// test can see whether Funcs was dropped.
	analyzers := append(suite.Analyzers(), lockstate.Analyzer)
	run := func(readers int) (diags []string, kept int) {
		restore, err := config.Set("readers", fmt.Sprint(readers))
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
		g, err := checker.Analyze(analyzers, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			if act.Analyzer == lockstate.Analyzer {
				if r := act.Result.(*lockstate.Result); r.Funcs != nil {
					kept++
				}
				continue
			}
			for _, d := range act.Diagnostics {
				diags = append(diags, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
			}
		}
		slices.Sort(diags)
		return diags, kept
	}
	want, kept := run(0)
	if kept == 0 || len(want) == 0 {
		t.Fatalf("without -config.readers: %d packages keep their results, %d diagnostics; want both above 0", kept, len(want))
	}
	got, kept := run(lockstate.Readers(analyzers))
	if kept != 0 {
		t.Errorf("with -config.readers: %d packages still hold their per-function results", kept)
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
