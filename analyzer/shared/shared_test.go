package shared_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/shared"
)

func TestShared(t *testing.T) {
	t.Parallel() // its own configuration (testconfig.With): nothing shared
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, testconfig.With(t, shared.Analyzer, "shared", "true"), "shared")
}

// TestOffByDefault: without -config.shared the rule reports nothing. The
// fixture's wants are unmet on purpose (quiet swallows those), but the
// analysis itself must run: an error, or no result, fails.
func TestOffByDefault(t *testing.T) {
	testdata := testdir.Path(t)
	res := analysistest.Run(&quiet{T: t}, testdata, shared.Analyzer, "shared")
	if len(res) == 0 {
		t.Fatal("no result: the analysis did not run")
	}
	for _, r := range res {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Pass.Pkg.Path(), r.Err)
		}
		if len(r.Diagnostics) > 0 {
			t.Errorf("%d diagnostics with the rule off", len(r.Diagnostics))
		}
	}
}

// quiet swallows the unmet wants of a run that is meant to report nothing.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(string, ...any) {}
