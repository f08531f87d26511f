package config_test

import (
	"go/types"
	"reflect"
	"testing"

	"github.com/guardvet/guardvet/analyzer/config"
)

// TestDefaultsAndSet checks the defaults a user gets, what each option
// implies, and that Set restores the previous value.
func TestDefaultsAndSet(t *testing.T) {
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
		restore, err := config.Set(tc.flag, "true")
		if err != nil {
			t.Fatal(err)
		}
		if c := run(t); !tc.check(c) {
			t.Errorf("-config.%s: got %+v", tc.flag, *c)
		}
		restore()
	}
	// The conventions are read under inference only.
	restore, _ := config.Set("infer.prose", "false")
	if c := run(t); c.ProseGuards() {
		t.Error("prose guards on without inference")
	}
	restore()
	if c := run(t); !reflect.DeepEqual(c, run(t)) || c.Infer() {
		t.Errorf("restore left a change behind: %+v", *c)
	}
	if _, err := config.Set("nosuch", "true"); err == nil {
		t.Error("Set of an unknown option succeeded")
	}
}

// TestResultIsACopy checks that a Config handed out is not changed by
// flags set later.
func TestResultIsACopy(t *testing.T) {
	before := run(t)
	restore, err := config.Set("infer", "true")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	if before.Infer() {
		t.Error("a Config returned earlier changed when a flag was set")
	}
}

// TestReadersByPackage: once the driver names the packages it checks,
// a dependency counts only the readers that run in dependencies; before,
// and after the roots are forgotten, every package counts as checked.
func TestReadersByPackage(t *testing.T) {
	root, dep := types.NewPackage("a", "a"), types.NewPackage("b", "b")
	for name, v := range map[string]string{"readers": "7", "readers.deps": "4"} {
		restore, err := config.Set(name, v)
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
	}
	if c := run(t); c.Readers(root) != 7 || c.Readers(dep) != 7 {
		t.Errorf("no roots named: readers %d, %d; want 7 in both", c.Readers(root), c.Readers(dep))
	}
	forget, err := config.Set("roots", "x, a")
	if err != nil {
		t.Fatal(err)
	}
	if c := run(t); c.Readers(root) != 7 || c.Readers(dep) != 4 {
		t.Errorf("roots x and a: readers %d in a, %d in b; want 7, 4", c.Readers(root), c.Readers(dep))
	}
	if got := config.Analyzer.Flags.Lookup("roots").Value.String(); got != "a,x" {
		t.Errorf("-config.roots reads %q, want the sorted paths a,x", got)
	}
	forget()
	if c := run(t); c.Readers(dep) != 7 {
		t.Errorf("roots forgotten: readers in b %d, want 7", c.Readers(dep))
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
