package testconfig_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
)

// TestWithLeavesTheFlagsAlone: a bound analyzer gets the configuration
// asked for, and the flags, which other tests read, do not change.
func TestWithLeavesTheFlagsAlone(t *testing.T) {
	var got *config.Config
	probe := &analysis.Analyzer{Name: "probe", Doc: "probe", Requires: []*analysis.Analyzer{config.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) { got = config.Of(pass); return nil, nil }}
	bound := testconfig.With(t, probe, "infer", "true")
	if bound == probe || bound.Requires[0] == config.Analyzer {
		t.Fatal("With did not copy the analyzer and what it requires")
	}
	res, err := bound.Requires[0].Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bound.Run(&analysis.Pass{Analyzer: bound, ResultOf: map[*analysis.Analyzer]any{bound.Requires[0]: res}}); err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.Infer() {
		t.Errorf("the bound analyzer's configuration: %v, want inference on", got)
	}
	if config.FromFlags().Infer() {
		t.Error("With changed the flags")
	}
}
