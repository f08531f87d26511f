package guardedby_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

// TestLockedConvention checks, with guard inference on, the calls of
// methods named ...Locked and of functions whose doc says their caller
// holds a lock, under a configuration of its own (testconfig.With).
func TestLockedConvention(t *testing.T) {
	t.Parallel()
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, testconfig.With(t, guardedby.Analyzer, "infer", "true"), "lockedconv")
}
