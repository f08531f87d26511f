package guardinfer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardinfer"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestGuardInfer(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, testconfig.With(t, guardinfer.Analyzer, "infer", "true"), "guardinfer")
}

// TestGuardInferTestFiles: a test file's accesses are reported only while
// a goroutine the test started with the object runs.
func TestGuardInferTestFiles(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, testconfig.With(t, guardinfer.Analyzer, "infer", "true"), "guardinfertests")
}

// TestSuggest runs inference with -config.infer.suggest: one finding per
// field (//guard:by) and per ...Locked or doc-contract function
// (//guard:holds, rholds), each with a fix; the golden file is the package
// with every directive inserted.
func TestSuggest(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, testconfig.With(t, guardinfer.Analyzer, "infer.suggest", "true"), "guardinfersuggest")
}

// TestExplain runs inference with -config.infer.explain: every finding
// ends with its evidence.
func TestExplain(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, testconfig.With(t, guardinfer.Analyzer, "infer", "true", "infer.explain", "true"), "guardinferexplain")
}
