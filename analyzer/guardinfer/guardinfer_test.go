package guardinfer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardinfer"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestGuardInfer(t *testing.T) {
	testconfig.Set(t, "infer", "true")
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, guardinfer.Analyzer, "guardinfer")
}

// TestGuardInferTestFiles: a test file's accesses are reported only while
// a goroutine the test started with the object runs.
func TestGuardInferTestFiles(t *testing.T) {
	testconfig.Set(t, "infer", "true")
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardinfer.Analyzer, "guardinfertests")
}

// TestSuggest runs inference with -config.infer.suggest: one finding per
// field (//guard:by) and per ...Locked or doc-contract function
// (//guard:holds, rholds), each with a fix; the golden file is the package
// with every directive inserted. The option is restored afterwards, and
// these tests do not run in parallel.
func TestSuggest(t *testing.T) {
	testconfig.Set(t, "infer.suggest", "true")
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, guardinfer.Analyzer, "guardinfersuggest")
}

// TestExplain runs inference with -config.infer.explain: every finding
// ends with its evidence.
func TestExplain(t *testing.T) {
	for _, opt := range []string{"infer", "infer.explain"} {
		testconfig.Set(t, opt, "true")
	}
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardinfer.Analyzer, "guardinferexplain")
}
