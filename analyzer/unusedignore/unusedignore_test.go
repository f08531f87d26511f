package unusedignore_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/unusedignore"
)

func TestUnusedIgnore(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, unusedignore.Analyzer, "ignores")
}
