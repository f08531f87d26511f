package sessionref_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestGuardvetClean runs every guardvet analyzer over sessionref, as
// guardvet ./sessionref does, and expects no diagnostic at all.
func TestGuardvetClean(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Tests: true}, "github.com/guardvet/guardvet/sessionref")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("sessionref does not type-check")
	}
	graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		checked++
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
		}
	}
	if checked == 0 {
		t.Fatal("nothing was analysed")
	}
}

// The buggy twin, testdata/src/sessiontwin, is checked with every rule on
// by analyzer/suite's TestFixturesWithEveryRule: each of its seven
// patterns carries the findings it must get as // want comments.
