package directives_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestMalformedDirectives(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, directives.Analyzer, "baddirectives")
}

func TestChecklocksDialectValidation(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksbad")
}

// TestChecklocksForeignAndReasons: other gVisor analyzers' +check...
// annotations draw no diagnostic, near-misses of checklocks names do, and
// the ignore, force and atomic annotations accept a reason after a colon.
func TestChecklocksForeignAndReasons(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksforeign")
}

// TestCrossPackageLockPaths: a lock path through an embedded field into
// another package's unexported lock resolves.
func TestCrossPackageLockPaths(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, directives.Analyzer, "checklocksreal/stackdirs")
}

// TestAnnotates: what makes a package annotated for the driver's
// directive-free check is what Result.Declared counts.
func TestAnnotates(t *testing.T) {
	for text, want := range map[string]bool{
		"//guard:by mu":                 true,
		"// +checklocks:mu":             true,
		"// +checklocksignore":          false, // a suppression: generators write them everywhere
		"// +checklocksforce: a reason": false,
		"// +checkloks:mu":              true, // malformed: reported, so it counts
		"//guard:frobnicate":            true,
		"// check the result first":     false,
		"// nothing to see":             false,
		"// +checkescape":               false, // another gVisor analyzer's
	} {
		if got := directives.Annotates(&ast.Comment{Text: text}); got != want {
			t.Errorf("Annotates(%q) = %v, want %v", text, got, want)
		}
	}
}
