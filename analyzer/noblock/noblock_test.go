package noblock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/noblock"
)

func TestNoBlock(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, noblock.Analyzer, "noblock")
}

// TestNoBlockAll checks -noblock.all, an option of the run's configuration
// like every other: under it every lock counts as //guard:noblock.
func TestNoBlockAll(t *testing.T) {
	t.Parallel()
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, testconfig.With(t, noblock.Analyzer, "noblock.all", "true"), "noblockall")
}
