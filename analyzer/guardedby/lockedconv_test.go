package guardedby_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/guardinfer"
)

// TestLockedConvention checks, with guard inference on, the calls of
// methods named ...Locked and of functions whose doc says their caller
// holds a lock. Inference is a package-global flag: it is switched off
// again so the other tests see guardedby's defaults. Not parallel.
func TestLockedConvention(t *testing.T) {
	if err := guardinfer.Analyzer.Flags.Set("on", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := guardinfer.Analyzer.Flags.Set("on", "false"); err != nil {
			t.Error(err)
		}
	})
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, guardedby.Analyzer, "lockedconv")
}
