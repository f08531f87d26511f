package guardinfer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardinfer"
)

func TestGuardInfer(t *testing.T) {
	if err := guardinfer.Analyzer.Flags.Set("on", "true"); err != nil {
		t.Fatal(err)
	}
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, guardinfer.Analyzer, "guardinfer")
}

// TestSuggest runs inference with -guardinfer.suggest: one finding per
// field (//guard:by) and per ...Locked or doc-contract function
// (//guard:holds, rholds), each with a fix; the golden file is the package
// with every directive inserted. Flags are package globals, so suggest is
// switched off again, and these tests do not run in parallel.
func TestSuggest(t *testing.T) {
	if err := guardinfer.Analyzer.Flags.Set("suggest", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := guardinfer.Analyzer.Flags.Set("suggest", "false"); err != nil {
			t.Error(err)
		}
	})
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, guardinfer.Analyzer, "guardinfersuggest")
}
