package config_test

import (
	"go/types"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
)

// TestDefaultsAndWith checks the defaults a user gets, what each option
// implies, and that With changes a copy only.
func TestDefaultsAndWith(t *testing.T) {
	c := run(t)
	if c.Infer() || c.Suggest() || c.LockedConvention() || c.ProseGuards() || c.AnalyseUnannotated() || c.UnannotatedOrder() || c.AllRules() {
		t.Fatalf("default configuration turns something on: %+v", *c)
	}
	if n, r := c.InferThreshold(); n != 5 || r != 0.9 {
		t.Errorf("default threshold %d, %v; want 5, 0.9", n, r)
	}
	for _, tc := range []struct {
		flag  string
		check func(*config.Config) bool
	}{
		{"infer", func(c *config.Config) bool {
			return c.Infer() && c.AnalyseUnannotated() && c.LockedConvention() && c.ProseGuards() && !c.Suggest()
		}},
		{"infer.suggest", func(c *config.Config) bool { return c.Infer() && c.Suggest() && c.AnalyseUnannotated() }},
		{"unannotated", func(c *config.Config) bool { return c.UnannotatedOrder() && c.AnalyseUnannotated() && !c.Infer() }},
		{"allrules", func(c *config.Config) bool { return c.AllRules() && !c.AnalyseUnannotated() }},
	} {
		w, err := c.With(tc.flag, "true")
		if err != nil {
			t.Fatal(err)
		}
		if !tc.check(w) {
			t.Errorf("-config.%s: got %+v", tc.flag, *w)
		}
	}
	// The conventions are read under inference only.
	if w := c.MustWith("infer.prose", "false"); w.ProseGuards() {
		t.Error("prose guards on without inference")
	}
	if !reflect.DeepEqual(c, run(t)) || c.Infer() {
		t.Errorf("With changed the configuration it copied: %+v", *c)
	}
	if _, err := c.With("nosuch", "true"); err == nil {
		t.Error("With of an unknown option succeeded")
	}
	if c.String() == c.MustWith("strict", "true").String() {
		t.Error("String does not tell two configurations apart")
	}
}

// TestReadersByPackage: once the driver names the packages it checks,
// a dependency counts only the readers that run in dependencies; before,
// and after the roots are forgotten, every package counts as checked.
func TestReadersByPackage(t *testing.T) {
	root, dep := types.NewPackage("a", "a"), types.NewPackage("b", "b")
	c := run(t).MustWith("readers", "7").MustWith("readers.deps", "4")
	if c.Readers(root) != 7 || c.Readers(dep) != 7 {
		t.Errorf("no roots named: readers %d, %d; want 7 in both", c.Readers(root), c.Readers(dep))
	}
	named := c.MustWith("roots", "x, a")
	if named.Readers(root) != 7 || named.Readers(dep) != 4 {
		t.Errorf("roots x and a: readers %d in a, %d in b; want 7, 4", named.Readers(root), named.Readers(dep))
	}
	if !strings.Contains(named.String(), "roots=a,x") {
		t.Errorf("the roots read %q, want the sorted paths a,x", named.String())
	}
	if c.Readers(dep) != 7 {
		t.Errorf("the copy the roots were set on changed: readers in b %d, want 7", c.Readers(dep))
	}
}

// TestBind: the bound copies get the configuration given, and the
// originals, and the flags, keep theirs.
func TestBind(t *testing.T) {
	var got []*config.Config
	probe := &analysis.Analyzer{Name: "probe", Doc: "probe", Requires: []*analysis.Analyzer{config.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) { got = append(got, config.Of(pass)); return nil, nil }}
	strict := run(t).MustWith("strict", "true")
	bound := config.Bind([]*analysis.Analyzer{probe}, strict)[0]
	for _, a := range []*analysis.Analyzer{bound, probe} {
		res, err := a.Requires[0].Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Run(&analysis.Pass{Analyzer: a, ResultOf: map[*analysis.Analyzer]any{a.Requires[0]: res}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || !got[0].Strict() || got[1].Strict() {
		t.Errorf("bound then original: strict %v, want true then false", got)
	}
	if bound.Name != probe.Name || bound.Requires[0].Name != "config" {
		t.Errorf("the copies keep their names: %s, %s", bound.Name, bound.Requires[0].Name)
	}
}

func run(t *testing.T) *config.Config {
	t.Helper()
	res, err := config.Analyzer.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.(*config.Config)
}

// A rule's own option (-noblock.all) is part of the configuration: With
// sets it on a copy, String keys it, and a bad value or unknown name is an
// error.
func TestRuleOptions(t *testing.T) {
	t.Parallel()
	def := config.Default()
	on, err := def.With("noblock.all", "true")
	if err != nil {
		t.Fatal(err)
	}
	if !on.NoblockAll() || def.NoblockAll() {
		t.Errorf("With(noblock.all): copy %v, original %v; want true, false", on.NoblockAll(), def.NoblockAll())
	}
	if !strings.Contains(on.String(), "noblock.all=true") || !strings.Contains(def.String(), "noblock.all=false") {
		t.Errorf("String does not key noblock.all: %q / %q", on.String(), def.String())
	}
	if _, err := def.With("noblock.all", "maybe"); err == nil || !strings.Contains(err.Error(), "noblock.all") {
		t.Errorf("With(noblock.all, maybe) = %v, want an error naming it", err)
	}
	if _, err := def.With("noblock.nosuch", "1"); err == nil {
		t.Error("With(noblock.nosuch) succeeded")
	}
	if !config.IsRuleOption("noblock", "all") || config.IsRuleOption("noblock", "nosuch") || config.IsRuleOption("guardedby", "all") {
		t.Error("IsRuleOption does not know noblock.all alone")
	}
}
