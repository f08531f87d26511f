package lockstate_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// TestBudgetExhausted checks the fallback when the dataflow does not reach
// a fixpoint within its budget: the function is reported as not checked
// and none of its states are used.
func TestBudgetExhausted(t *testing.T) {
	defer lockstate.SetVisitBudget(1)()
	analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "budget")
}
