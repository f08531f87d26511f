package unusedignore_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/unusedignore"
)

func TestUnusedIgnore(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, unusedignore.Analyzer, "ignores")
}

// TestIgnoreForInference: an ignore written for guard inference is left
// alone in a default run (inference off could not use it) and is used
// under -config.infer (it suppresses inference's findings). In both runs
// the ignore no rule could use is reported, by the same want.
func TestIgnoreForInference(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, unusedignore.Analyzer, "ignoresinfer")
	analysistest.Run(t, testdata, testconfig.With(t, unusedignore.Analyzer, "infer", "true"), "ignoresinfer")
}
