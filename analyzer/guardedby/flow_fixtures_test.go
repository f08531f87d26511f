package guardedby_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

func flowTestdata(t *testing.T) string { return testdir.Path(t) }

func TestClosures(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "closures")
}

func TestDeferBranch(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "deferbranch")
}

func TestWrappers(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "wrappers")
}

func TestGlobals(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "globals", "globals/use")
}

func TestGenerics(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "generics")
}

func TestCrossPkg(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "crosspkg/lib", "crosspkg/helpers", "crosspkg/use")
}

func TestContracts(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "contracts")
}

func TestDeferPaths(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "deferpaths")
}

func TestRetake(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "retake")
}

func TestTryLockWrap(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "trylockwrap", "trylockwrap/lib", "trylockwrap/use")
}

func TestNestedLock(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "nestedlock", "nestedlock/lockdep")
}

// TestReassign: an assignment to the root or a path of a held lock makes
// the name refer to another object, whose lock is not held.
func TestReassign(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "reassign")
}

// TestJoinModes: read-locked on one path and locked on the other covers a
// read, not a write.
func TestJoinModes(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "joinmodes")
}

// TestDowngrade: DowngradeLock turns a write lock into a read lock, on
// gVisor's lock type and on a generated wrapper around it.
func TestDowngrade(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "downgrade", "downgrade/rwsync")
}

// TestCondAcquire: functions that acquire a lock only when their error
// result is nil, declared (rooted at a parameter) or inferred, and the
// callers that return early on the error.
func TestCondAcquire(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "condacquire/vfs", "condacquire")
}

// TestAnonymousStructFields: directives on the fields of anonymous struct
// types, at package level, as an element type and in a local.
func TestAnonymousStructFields(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "anonfield")
}

// TestSameLock: one lock named by two paths (a lock and the deferred
// unlock right after it, a local alias, pointers compared equal).
func TestSameLock(t *testing.T) {
	analysistest.Run(t, flowTestdata(t), guardedby.Analyzer, "samelock")
}
