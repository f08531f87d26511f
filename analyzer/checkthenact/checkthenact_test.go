package checkthenact_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestCheckThenAct(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, checkthenact.Analyzer, "checkthenact", "ctasections")
}

// TestOuterSection: check and act inside one critical section of the
// object's own lock held for writing, and an atomic load and store that
// every store of the field and every caller make under one lock.
func TestOuterSection(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, checkthenact.Analyzer, "ctaouter")
}

// TestComputedValues: the value read reaches the write through compound
// assignments, derived locals, loops and reassignments.
func TestComputedValues(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, checkthenact.Analyzer, "ctacompute")
}

// TestLossless: check-then-acts that cannot lose an update are left out
// (an act a callee re-checks, store-if-differs, a field only ever given one
// constant); their twins that can are reported.
func TestLossless(t *testing.T) {
	analysistest.Run(t, testdir.Path(t), checkthenact.Analyzer, "ctalossless/...")
}

// TestStrict: under -config.strict the check-then-acts that cannot lose an
// update are reported too (ctastrict is ctalossless with their wants).
func TestStrict(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	analysistest.Run(t, testdir.Path(t), testconfig.With(t, checkthenact.Analyzer, "strict", "true"), "ctastrict")
}
