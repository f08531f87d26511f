package rule_test

import (
	"flag"
	"go/types"
	"os"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

const probeDoc = `/*
# Analyzer probe

probe reports the first body the engine analysed.
*/
package probe`

type probeFact struct{}

func (*probeFact) AFact() {}

// TestNewDeclares: the Analyzer carries the rule's own parts as given and
// what every rule has in common: its Doc from doc.go, its page's URL, the
// engine last among its Requires, report.Used as its result.
func TestNewDeclares(t *testing.T) {
	var fs flag.FlagSet
	fs.Bool("all", false, "a flag")
	a := rule.New(rule.Spec{Name: "probe", DocFile: probeDoc, Run: func(*rule.Pass) {},
		Requires: []*analysis.Analyzer{config.Analyzer}, Facts: []analysis.Fact{(*probeFact)(nil)}, Flags: fs})
	if a.Name != "probe" || a.Doc != "probe reports the first body the engine analysed." || a.URL != docs.RuleURL("probe") {
		t.Errorf("Name, Doc, URL = %q, %q, %q", a.Name, a.Doc, a.URL)
	}
	if !slices.Equal(a.Requires, []*analysis.Analyzer{config.Analyzer, lockstate.Analyzer}) {
		t.Errorf("Requires = %v, want config then lockstate", a.Requires)
	}
	if a.ResultType != report.UsedType || len(a.FactTypes) != 1 || a.Flags.Lookup("all") == nil {
		t.Errorf("ResultType %v, FactTypes %v, flag all %v", a.ResultType, a.FactTypes, a.Flags.Lookup("all"))
	}
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Fatal(err)
	}
}

// TestNewRuns: Run gets the engine's result and a reporter for the rule's
// category; after it returns, the reporter is flushed (the diagnostic is
// the action's, the rule's result is report.Used) and the engine's
// records are released (with one reader counted, Funcs is dropped).
func TestNewRuns(t *testing.T) {
	var engine *lockstate.Result
	funcs := 0
	probe := rule.New(rule.Spec{Name: "probe", DocFile: probeDoc, Run: func(p *rule.Pass) {
		engine, funcs = p.Engine, len(p.Engine.Funcs)
		if funcs > 0 {
			p.Report.Reportf(p.Engine.Funcs[0].Decl.Pos(), nil, "first body")
		}
	}})
	testdata := testdir.Path(t)
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  testdata,
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOWORK=off"),
	}, "basic")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the fixture basic: %v %v", err, pkgs)
	}
	c := config.Default()
	release, err := lockstate.ReleaseEarly(&c, []*analysis.Analyzer{probe}, []*types.Package{pkgs[0].Types})
	if err != nil {
		t.Fatal(err)
	}
	g, err := checker.Analyze(config.Bind([]*analysis.Analyzer{probe}, release), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	act := g.Roots[0]
	if act.Err != nil {
		t.Fatal(act.Err)
	}
	if funcs == 0 {
		t.Fatal("Run saw no bodies")
	}
	if len(act.Diagnostics) != 1 || act.Diagnostics[0].Category != "probe" || act.Diagnostics[0].Message != "first body" {
		t.Errorf("diagnostics %+v, want one, category probe", act.Diagnostics)
	}
	if _, ok := act.Result.(report.Used); !ok {
		t.Errorf("result %T, want report.Used", act.Result)
	}
	if engine.Funcs != nil {
		t.Error("the engine's records were not released after Run")
	}
}
