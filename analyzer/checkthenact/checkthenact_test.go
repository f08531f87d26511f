package checkthenact_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
)

func TestCheckThenAct(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, checkthenact.Analyzer, "checkthenact", "ctasections")
}
