package noblock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/noblock"
)

func TestNoBlock(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, noblock.Analyzer, "noblock")
}
