package escape_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/escape"
	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestEscape(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, escape.Analyzer, "escape", "escapesnap", "escapecow")
}

// TestStrict: under -config.strict the copy-on-write and empty values
// handed out are reported too.
func TestStrict(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	analysistest.Run(t, testdir.Path(t), testconfig.With(t, escape.Analyzer, "strict", "true"), "escapestrict")
}
