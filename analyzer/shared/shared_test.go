package shared_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/shared"
)

func TestShared(t *testing.T) {
	restore, err := config.Set("shared", "true")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, shared.Analyzer, "shared")
}

// TestOffByDefault: without -config.shared the rule reports nothing.
func TestOffByDefault(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	res := analysistest.Run(&quiet{T: t}, testdata, shared.Analyzer, "shared")
	for _, r := range res {
		if len(r.Diagnostics) > 0 {
			t.Errorf("%d diagnostics with the rule off", len(r.Diagnostics))
		}
	}
}

// quiet swallows the unmet wants of a run that is meant to report nothing.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(string, ...any) {}
