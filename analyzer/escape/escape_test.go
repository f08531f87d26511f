package escape_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/escape"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestEscape(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, escape.Analyzer, "escape", "escapesnap")
}
