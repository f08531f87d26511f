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
