package config

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// With returns a copy of c with one option, named as its flag is (without
// -config.; a rule's own option as RULE.NAME, e.g. noblock.all), set to value, as the command line would set it. c is not
// changed.
func (c *Config) With(name, value string) (*Config, error) {
	cp := *c
	fs, opt := flagsFor(&cp), name
	if rule, o, ok := strings.Cut(name, "."); ok && slices.Contains(ruleOptions, rule) {
		fs, opt = ruleFlagsFor(&cp, rule), o
	}
	if err := fs.Set(opt, value); err != nil {
		return nil, fmt.Errorf("config: %s: %v", name, err)
	}
	return &cp, nil
}

// MustWith is With for an option and value known to be valid: a failure
// is a bug in guardvet.
func (c *Config) MustWith(name, value string) *Config {
	cp, err := c.With(name, value)
	if err != nil {
		panic(err)
	}
	return cp
}

// String lists every option as -NAME=VALUE, sorted: what a result cache
// keys a run's configuration by.
func (c *Config) String() string {
	var opts []string
	flagsFor(c).VisitAll(func(f *flag.Flag) { opts = append(opts, f.Name+"="+f.Value.String()) })
	for _, rule := range ruleOptions {
		ruleFlagsFor(c, rule).VisitAll(func(f *flag.Flag) { opts = append(opts, rule+"."+f.Name+"="+f.Value.String()) })
	}
	sort.Strings(opts)
	return strings.Join(opts, " ")
}

// Bind returns analyzers, with everything they require, as copies in
// which Analyzer is replaced by an analyzer whose result is c: the graph a
// run under c analyses with. Runs with different options analyse with
// different graphs, so that no run writes the options another reads.
// Analyzers find what they require by its type (Of, lockstate.Of,
// directives.Of), not by the required Analyzer variable, so that the
// copies work as the originals do; each copy keeps its name, flags and
// fact types.
func Bind(analyzers []*analysis.Analyzer, c *Config) []*analysis.Analyzer {
	fixed := *Analyzer
	fixed.Run = func(*analysis.Pass) (any, error) { return c, nil }
	copies := map[*analysis.Analyzer]*analysis.Analyzer{Analyzer: &fixed}
	var bind func(a *analysis.Analyzer) *analysis.Analyzer
	bind = func(a *analysis.Analyzer) *analysis.Analyzer {
		if cp := copies[a]; cp != nil {
			return cp
		}
		cp := *a
		copies[a] = &cp
		cp.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, r := range a.Requires {
			cp.Requires[i] = bind(r)
		}
		return &cp
	}
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = bind(a)
	}
	return out
}
