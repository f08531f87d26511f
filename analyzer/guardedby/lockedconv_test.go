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
// holds a lock. Inference is a package-global flag: it is switched off
// again so the other tests see guardedby's defaults. Not parallel.
func TestLockedConvention(t *testing.T) {
	testconfig.Set(t, "infer", "true")
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "lockedconv")
}
