package escape_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/escape"
)

func TestEscape(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, escape.Analyzer, "escape", "escapesnap")
}
