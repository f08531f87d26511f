package directives_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/directives"
)

func TestMalformedDirectives(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, directives.Analyzer, "baddirectives")
}

func TestChecklocksDialectValidation(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksbad")
}

// TestChecklocksForeignAndReasons: other gVisor analyzers' +check...
// annotations draw no diagnostic, near-misses of checklocks names do, and
// the ignore, force and atomic annotations accept a reason after a colon.
func TestChecklocksForeignAndReasons(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksforeign")
}

// TestCrossPackageLockPaths: a lock path through an embedded field into
// another package's unexported lock resolves.
func TestCrossPackageLockPaths(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksreal/stackdirs")
}
