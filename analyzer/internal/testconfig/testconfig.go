// Package testconfig runs analyzers under a configuration a test builds,
// as a driver does (config.Bind): no test writes the options another reads,
// so tests may run in parallel.
package testconfig

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
)

// With returns a, bound to the default configuration with each option of
// opts (name, value, name, value, ...; flag names without -config.) set,
// or fails the test.
func With(t testing.TB, a *analysis.Analyzer, opts ...string) *analysis.Analyzer {
	t.Helper()
	return Bind(t, []*analysis.Analyzer{a}, opts...)[0]
}

// Bind is With for several analyzers, bound to one configuration.
func Bind(t testing.TB, as []*analysis.Analyzer, opts ...string) []*analysis.Analyzer {
	t.Helper()
	return config.Bind(as, Config(t, opts...))
}

// Config is the default configuration with each option of opts (name,
// value, name, value, ...) set, or fails the test.
func Config(t testing.TB, opts ...string) *config.Config {
	t.Helper()
	c := config.Default()
	cfg := &c
	for i := 0; i+1 < len(opts); i += 2 {
		var err error
		if cfg, err = cfg.With(opts[i], opts[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if len(opts)%2 != 0 {
		t.Fatalf("testconfig: option %q has no value", opts[len(opts)-1])
	}
	return cfg
}
