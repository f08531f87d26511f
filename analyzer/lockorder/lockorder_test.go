package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/lockorder"
)

func TestLockOrder(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, lockorder.Analyzer, "lockorder/a", "lockorder/b", "lockretake")
}

func TestRetakeOrder(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, lockorder.Analyzer, "retakeorder")
}

// TestSameLockOrder: one lock named by two paths invents no order edge.
func TestSameLockOrder(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, lockorder.Analyzer, "samelock/order")
}

// TestLastReference: what a DecRef takes only when the count it released
// reaches zero makes no order edge at its callers; other conditions do.
func TestLastReference(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, lockorder.Analyzer, "lastref")
}

// TestOrderHint: a cycle's message ends with the //guard:order line that
// declares one order, and writing that line leaves only the declared
// order's violation (orderhint/fixed).
func TestOrderHint(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, lockorder.Analyzer, "orderhint/a", "orderhint/fixed")
}
