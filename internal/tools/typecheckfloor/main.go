// Command typecheckfloor is the speed baseline ("floor") for guardvet.
//
// It is a driver identical in shape to guardvet's standalone mode:
// multichecker.Main with a single analyzer. Here that analyzer does nothing
// (its Run returns nil, nil and it Requires nothing), so running
//
//	typecheckfloor [flags] packages...
//
// costs what the go/analysis driver costs before any real analysis
// happens: go/packages loading (including `go list -export`), parsing and
// type-checking. guardvet's speed target (under 5% wall-time overhead on
// directive-free code) is measured against this binary by
// internal/tools/guardvet-bench; see `make bench`.
//
// The -facts flag (default true) gives the no-op analyzer a fact type that
// it never exports. The standalone driver loads packages very differently
// depending on whether any analyzer declares facts: without facts it
// type-checks only the named packages and reads their dependencies from
// compiler export data (packages.LoadSyntax); with facts it also parses
// and type-checks every dependency from source (packages.LoadAllSyntax)
// and runs the analyzers on each of them. The floor must match guardvet,
// whose analyzers declare facts; -facts=false gives the lighter floor of
// a fact-free analyzer.
package main

import (
	"flag"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
)

// noop is an analyzer that does no work, so that only loading and
// type-checking are measured.
var noop = &analysis.Analyzer{
	Name:      "typecheckfloor",
	Doc:       "no-op analyzer: measures package loading and type-checking only",
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
	FactTypes: []analysis.Fact{new(floorFact)},
}

// floorFact is never exported; declaring it only puts the driver into its
// facts mode.
type floorFact struct{}

func (*floorFact) AFact()         {}
func (*floorFact) String() string { return "floorFact" }

// factsFlag sets noop.FactTypes when parsed. multichecker.Main parses the
// command line before it decides the load mode, so this takes effect.
type factsFlag bool

func (f *factsFlag) String() string   { return strconv.FormatBool(bool(*f)) }
func (f *factsFlag) IsBoolFlag() bool { return true }
func (f *factsFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*f = factsFlag(v)
	if v {
		noop.FactTypes = []analysis.Fact{new(floorFact)}
	} else {
		noop.FactTypes = nil
	}
	return nil
}

func main() {
	facts := factsFlag(true)
	flag.Var(&facts, "facts", "declare a (never exported) fact type, so that dependencies are "+
		"type-checked from source as for guardvet, whose analyzers have facts")
	multichecker.Main(noop)
}
