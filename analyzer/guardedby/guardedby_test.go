package guardedby_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func TestGuardedBy(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "basic", "ignoresguarded")
}

func TestOnlyHelpers(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "onlyhelpers")
}

// TestPTYSession is the README's headline example: every racy site of the
// pre-fix session is reported, and the fixed session is clean.
func TestPTYSession(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "ptysession/before", "ptysession/after")
}

func TestFreshObjects(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "fresh/frag", "fresh")
}

// TestSuggestedFixes compares the fixed files with fixes.go.golden: an
// only-field read becomes a call of its getter, and an early return that
// keeps a lock gets the missing Unlock.
func TestSuggestedFixes(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.RunWithSuggestedFixes(t, testdata, guardedby.Analyzer, "fixes")
}

// TestChecklocksDialect checks code annotated in gVisor's dialect, mixed
// with //guard: directives, with a wrapper mutex type.
func TestChecklocksDialect(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "checklocks", "checklocks/use")
}

// TestChecklocksAlias checks +checklocksalias in the shapes gVisor uses it:
// both names of one lock are the same lock for field guards, contract
// calls, function entry and exit, and in other packages.
func TestChecklocksAlias(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "checklocksreal/alias", "checklocksreal/alias/use")
}

// TestChecklocksReasons checks +checklocksforce and +checklocksignore with
// a reason after a colon, as gVisor writes them; a forced line covers
// contract calls as well as field accesses.
func TestChecklocksReasons(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "checklocksreal/reason")
}

// TestChecklocksForce checks +checklocksforce on a return, and on a call
// whose lock the caller holds: what a forced line holds is the caller's,
// never a lock the function must release.
func TestChecklocksForce(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "checklocksreal/force")
}

// TestCrossPackageLockPaths checks calls whose contracts name another
// package's unexported lock.
func TestCrossPackageLockPaths(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "checklocksreal/ports", "checklocksreal/stack")
}

// TestReadWrite checks what counts as a write under a read lock: method
// calls on value fields by what the method does through its receiver (also
// across packages), and addresses by what is done through them.
func TestReadWrite(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "readwrite/lib", "readwrite")
}

// TestAtomicWrappers checks //guard:atomic fields of types implemented
// with sync/atomic, also from another package, and sync/atomic calls on
// converted addresses.
func TestAtomicWrappers(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "atomicwrap/lib", "atomicwrap")
}

// TestAtomicAssembly checks //guard:atomic fields passed to functions
// implemented in assembly, judged by their Go bodies for other platforms.
func TestAtomicAssembly(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "atomicasm/lib", "atomicasm")
}

// TestAtomicCopy checks structs with atomic fields copied or assigned as a
// whole: through a pointer, a package-level variable, a slice element, a
// value receiver; and plain structs, addresses and fresh values left alone.
func TestAtomicCopy(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "atomiccopy")
}

// TestLockMap checks the report of an entry of a map of per-key locks
// deleted or replaced while its lock is held, and the safe shapes.
func TestLockMap(t *testing.T) {
	testdata := testdir.Path(t)
	analysistest.Run(t, testdata, guardedby.Analyzer, "lockmap")
}
