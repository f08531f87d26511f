package golangci

import (
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// build constructs the registered plugin, as golangci-lint does.
func build(t *testing.T, conf any) ([]string, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin("guardvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(conf)
	if err != nil {
		return nil, err
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		return nil, err
	}
	return names(as), nil
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestDefaultSettings(t *testing.T) {
	want := allNames() // every rule; config runs through Requires
	// golangci-lint passes nil when there is no settings key, and a map
	// (from YAML) otherwise.
	for _, conf := range []any{nil, map[string]any{}, map[string]any{"disable": []any{}}} {
		got, err := build(t, conf)
		if err != nil {
			t.Fatalf("%#v: %v", conf, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%#v: analyzers %v, want %v", conf, got, want)
		}
	}
}

func TestDisable(t *testing.T) {
	got, err := build(t, map[string]any{"disable": []any{"unusedignore"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := without(allNames(), "unusedignore"); !slices.Equal(got, want) {
		t.Errorf("analyzers %v, want %v", got, want)
	}

	got, err = build(t, map[string]any{"disable": []any{"guardedby", "directives"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := without(allNames(), "guardedby", "directives"); !slices.Equal(got, want) {
		t.Errorf("analyzers %v, want %v", got, want)
	}
}

func TestDisableEverything(t *testing.T) {
	var all []any
	for _, n := range allNames() {
		all = append(all, n)
	}
	_, err := build(t, map[string]any{"disable": all})
	if err == nil || !strings.Contains(err.Error(), "every rule") {
		t.Errorf("err = %v, want an error about disabling every rule", err)
	}
}

func TestUnknownKey(t *testing.T) {
	_, err := build(t, map[string]any{"disabel": []any{"guardedby"}})
	if err == nil {
		t.Fatal("no error for an unknown settings key")
	}
	for _, want := range []string{`"disabel"`, "disable, flags"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestWrongType(t *testing.T) {
	_, err := build(t, map[string]any{"disable": "guardedby"})
	if err == nil || !strings.Contains(err.Error(), "disable") {
		t.Errorf("err = %v, want a decoding error naming disable", err)
	}
}

func TestUnknownRule(t *testing.T) {
	_, err := build(t, map[string]any{"disable": []any{"guardedy"}})
	if err == nil {
		t.Fatal("no error for an unknown rule")
	}
	for _, want := range []string{`"guardedy"`, strings.Join(allNames(), ", ")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// No analyzer has flags today, so any flag is unknown and the error says so.
func TestUnknownFlagInSuite(t *testing.T) {
	_, err := build(t, map[string]any{"flags": map[string]any{"guardedby": map[string]any{"nosuch": 1}}})
	if err == nil || !strings.Contains(err.Error(), `unknown flag "guardedby.nosuch"`) {
		t.Errorf("err = %v, want an error naming guardedby.nosuch", err)
	}
}

// fakeSuite is a rule with a flag that requires an engine with a flag, the
// shape future analyzer flags (an inference switch) will have.
func fakeSuite() (rule, engine *analysis.Analyzer, minSites *int, infer *bool) {
	engine = &analysis.Analyzer{Name: "engine", Doc: "engine", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	infer = engine.Flags.Bool("infer", false, "infer guards")
	rule = &analysis.Analyzer{Name: "rule", Doc: "rule", Requires: []*analysis.Analyzer{engine}, Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	minSites = rule.Flags.Int("min-sites", 3, "minimum sites")
	rule.Flags.String("mode", "a", "a mode")
	return rule, engine, minSites, infer
}

func TestFlags(t *testing.T) {
	for _, conf := range []map[string]any{
		{"flags": map[string]any{"rule": map[string]any{"min-sites": 4}, "engine": map[string]any{"infer": true}}},
		{"flags": map[string]any{"rule.min-sites": "4", "engine.infer": "true"}},
		{"flags": map[string]any{"rule.MIN-SITES": 4.0, "engine": map[string]any{"infer": "true"}}},
	} {
		rule, _, minSites, infer := fakeSuite()
		p, err := newPlugin(conf, []*analysis.Analyzer{rule})
		if err != nil {
			t.Fatalf("%v: %v", conf, err)
		}
		if *minSites != 3 || *infer {
			t.Errorf("%v: flags set before BuildAnalyzers", conf)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatalf("%v: %v", conf, err)
		}
		if got := names(as); !slices.Equal(got, []string{"rule"}) {
			t.Errorf("%v: analyzers %v, want [rule]", conf, got)
		}
		if *minSites != 4 || !*infer {
			t.Errorf("%v: min-sites=%d infer=%v, want 4 and true", conf, *minSites, *infer)
		}
	}
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		flags any
		want  []string
	}{
		{map[string]any{"rule": map[string]any{"nosuch": 1}}, []string{`unknown flag "rule.nosuch"`, "valid flags: engine.infer, rule.min-sites, rule.mode"}},
		{map[string]any{"rule.nosuch": 1}, []string{`unknown flag "rule.nosuch"`, "rule.min-sites"}},
		{map[string]any{"other": map[string]any{"x": 1}}, []string{`unknown flag "other.x"`, "rule.min-sites"}},
		{map[string]any{"justaname": 1}, []string{`"justaname"`, "ANALYZER.FLAG"}},
		{map[string]any{"rule": map[string]any{"min-sites": []any{1}}}, []string{"rule.min-sites", "string, number or boolean"}},
		{map[string]any{"rule.mode": "b", "rule": map[string]any{"mode": "c"}}, []string{"rule.mode is set twice"}},
		{[]any{"rule.mode"}, []string{"flags: want a map"}},
	} {
		rule, _, _, _ := fakeSuite()
		_, err := newPlugin(map[string]any{"flags": tc.flags}, []*analysis.Analyzer{rule})
		if err == nil {
			t.Errorf("%v: no error", tc.flags)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not contain %q", tc.flags, err, w)
			}
		}
	}

	// A bad value is reported when the flags are applied.
	rule, _, minSites, _ := fakeSuite()
	p, err := newPlugin(map[string]any{"flags": map[string]any{"rule.min-sites": "many"}}, []*analysis.Analyzer{rule})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.BuildAnalyzers(); err == nil || !strings.Contains(err.Error(), "rule.min-sites") {
		t.Errorf("err = %v, want an error naming rule.min-sites", err)
	}
	if *minSites != 3 {
		t.Errorf("min-sites = %d after a bad value", *minSites)
	}
}

// allNames lists the rules: config holds options and is not one.
func allNames() []string {
	var names []string
	for _, a := range suite.Analyzers() {
		if a != config.Analyzer {
			names = append(names, a.Name)
		}
	}
	return names
}

func without(names []string, drop ...string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	return out
}

// The suite's real analyzer flags pass through settings, in both spellings,
// into the plugin's own configuration, which its analyzers are bound to;
// the package's flags keep their values.
func TestRealFlags(t *testing.T) {
	t.Parallel()
	for _, flags := range []map[string]any{
		{"noblock": map[string]any{"all": true}},
		{"noblock.all": "true"},
	} {
		if cfg := boundConfig(t, flags); !cfg.NoblockAll() {
			t.Errorf("flags %v: the plugin's noblock.all is off", flags)
		}
	}
	if n, _ := boundConfig(t, map[string]any{"config.infer.score": "6"}).InferThreshold(); n != 6 {
		t.Errorf("the plugin's config.infer.score = %d after settings, want 6", n)
	}
	if n, _ := boundConfig(t, map[string]any{"config": map[string]any{"infer.score": 7}}).InferThreshold(); n != 7 {
		t.Errorf("the plugin's config.infer.score = %d after nested settings, want 7", n)
	}
	if cfg := config.FromFlags(); cfg.NoblockAll() {
		t.Errorf("the settings changed the package's -noblock.all")
	} else if n, _ := cfg.InferThreshold(); n != 5 {
		t.Errorf("the settings changed the package's -config.infer.score to %d", n)
	}
	_, err := build(t, map[string]any{"flags": map[string]any{"guardedby": map[string]any{"nosuch": 1}}})
	if err == nil || !strings.Contains(err.Error(), "noblock.all") {
		t.Errorf("unknown flag error should list the valid flags, got %v", err)
	}
}

// boundConfig builds the plugin with flags as its settings and returns
// the configuration its analyzers are bound to.
func boundConfig(t *testing.T, flags map[string]any) *config.Config {
	t.Helper()
	p, err := newPlugin(map[string]any{"flags": flags}, suite.Analyzers())
	if err != nil {
		t.Fatalf("%v: %v", flags, err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatalf("%v: %v", flags, err)
	}
	var bound *analysis.Analyzer
	var find func(a *analysis.Analyzer)
	find = func(a *analysis.Analyzer) {
		if a.Name == "config" {
			bound = a
		}
		for _, r := range a.Requires {
			find(r)
		}
	}
	for _, a := range as {
		find(a)
	}
	if bound == nil {
		t.Fatal("no config analyzer among the plugin's analyzers' requirements")
	}
	res, err := bound.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.(*config.Config)
}

// analyze runs analyzers on the GOPATH-style fixture package
// testdata/src/pkg as golangci-lint does: only the roots' diagnostics count.
// It returns them as "file:line:col: rule: message", each followed by its
// related positions as "\trelated file:line:col: message", and fails the
// test on a load error or an analyzer's error.
func analyze(t *testing.T, analyzers []*analysis.Analyzer, pkg string) []string {
	t.Helper()
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  gopath,
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off"),
	}, pkg)
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
	})
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(fset *token.FileSet, p token.Pos) string {
		at := fset.Position(p)
		return fmt.Sprintf("%s:%d:%d", filepath.Base(at.Filename), at.Line, at.Column)
	}
	var out []string
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			out = append(out, pos(act.Package.Fset, d.Pos)+": "+act.Analyzer.Name+": "+d.Message)
			for _, r := range d.Related {
				out = append(out, "\trelated "+pos(act.Package.Fset, r.Pos)+": "+r.Message)
			}
		}
	}
	return out
}

// golangci-lint makes an issue of each related position of a diagnostic,
// at the related line: the plugin's analyzers fold them into the message,
// so that a finding is one issue, which //nolint:guardvet on its line
// silences whole. The fixture's //guard:ignore, which suppresses a
// guardedby finding, makes unusedignore read the rules' results: they must
// still reach it.
func TestRelatedFoldedIntoMessage(t *testing.T) {
	const finding = "inversion.go:22:2: lockorder: potential deadlock: Ledger.mu is acquired here (l.mu) while Account.mu is held (a.mu), " +
		"but elsewhere the order is reversed (Ledger.mu then Account.mu at inversion.go:32); pick one order and declare it on a package-level var declaration or a type's doc: //guard:order Account.mu Ledger.mu"
	p, err := newPlugin(nil, suite.Analyzers())
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	got := analyze(t, as, "inversion")
	want := []string{finding + "; related: inversion.go:21:2: Account.mu locked here"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The package-level analyzers are left as they are.
	got = analyze(t, rules(suite.Analyzers()), "inversion")
	want = []string{finding, "\trelated inversion.go:21:2: Account.mu locked here"}
	if !slices.Equal(got, want) {
		t.Errorf("suite.Analyzers() changed; diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The analyzers BuildAnalyzers returns form a graph in which each analyzer
// is once, so that each runs once and its results and facts are the ones
// its dependents read, and those that stand for a package-level analyzer
// keep its identity: name, documentation, URL, flags, facts and result.
func TestFoldedGraph(t *testing.T) {
	for _, disable := range [][]any{nil, {"directives"}, {"unusedignore"}, {"directives", "guardedby", "lockorder"}} {
		p, err := newPlugin(map[string]any{"disable": disable}, suite.Analyzers())
		if err != nil {
			t.Fatal(err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		if err := analysis.Validate(as); err != nil {
			t.Errorf("disable %v: %v", disable, err)
		}
		originals := map[string]*analysis.Analyzer{}
		walk(suite.Analyzers(), func(a *analysis.Analyzer) { originals[a.Name] = a })
		seen := map[string]*analysis.Analyzer{}
		walk(as, func(a *analysis.Analyzer) {
			if other := seen[a.Name]; other != nil && other != a {
				t.Errorf("disable %v: two analyzers named %s in the graph", disable, a.Name)
			}
			seen[a.Name] = a
			o := originals[a.Name]
			if o == nil {
				t.Errorf("disable %v: analyzer %s is not one of the suite's", disable, a.Name)
				return
			}
			if a.Doc != o.Doc || a.URL != o.URL || a.ResultType != o.ResultType || !slices.Equal(a.FactTypes, o.FactTypes) ||
				a.RunDespiteErrors != o.RunDespiteErrors || len(a.Requires) != len(o.Requires) || flagNames(&a.Flags) != flagNames(&o.Flags) {
				t.Errorf("disable %v: analyzer %s differs from the suite's beyond Run and Requires", disable, a.Name)
			}
		})
		for _, a := range as {
			if a == originals[a.Name] {
				t.Errorf("disable %v: rule %s is the package-level analyzer, not a copy that folds related positions", disable, a.Name)
			}
		}
	}
}

// walk calls f once for each analyzer reachable from roots.
func walk(roots []*analysis.Analyzer, f func(*analysis.Analyzer)) {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if !seen[a] {
			seen[a] = true
			f(a)
			for _, r := range a.Requires {
				visit(r)
			}
		}
	}
	for _, a := range roots {
		visit(a)
	}
}

func flagNames(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return strings.Join(names, ",")
}

// rules drops config, which reports nothing, from analyzers.
func rules(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	return slices.DeleteFunc(slices.Clone(analyzers), func(a *analysis.Analyzer) bool { return a == config.Analyzer })
}
