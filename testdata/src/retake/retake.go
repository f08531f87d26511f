// Package retake covers helpers that release a lock their caller holds and
// take it again before returning (testing.B.Run, step-out-and-back-in
// helpers): their net effect is none, so calling them with the lock held
// is not a double lock, and their own returns are balanced.
package retake

import (
	"sync"
	"testing"
)

type C struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
	r  int //guard:by rw
}

func work() {}

// stepOut is called with c.mu held; it steps out of the lock around work.
// Its accesses before the release rely on the caller's lock: it is
// unexported and every call of it holds c.mu (see Callers), so it is
// checked as if it declared //guard:holds c.mu.
func (c *C) stepOut() {
	c.n++
	c.mu.Unlock()
	work()
	c.mu.Lock()
	c.n++
}

// stepOutDeferred re-takes the lock in a defer, like testing.B.Run.
func (c *C) stepOutDeferred() {
	c.mu.Unlock()
	defer c.mu.Lock()
	work()
}

// stepOutEarlyReturns has early returns after the lock is taken again:
// each returns holding the lock the caller holds, as it found it.
func (c *C) stepOutEarlyReturns(fail bool) error {
	c.mu.Unlock()
	work()
	c.mu.Lock()
	if fail {
		return errFail
	}
	c.mu.Unlock()
	work()
	c.mu.Lock()
	if c.n > 0 {
		return errFail
	}
	return nil
}

// stepOutRead does the same with a read lock.
func (c *C) stepOutRead() int {
	v := c.r // every call holds c.rw read-locked
	c.rw.RUnlock()
	work()
	c.rw.RLock()
	return v + c.r
}

type failErr struct{}

func (failErr) Error() string { return "fail" }

var errFail error = failErr{}

func (c *C) callsStepOut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stepOut()
	c.n++
	c.stepOutDeferred()
	c.n++
	if err := c.stepOutEarlyReturns(true); err != nil {
		return
	}
	c.n++
}

func (c *C) callsStepOutRead() int {
	c.rw.RLock()
	defer c.rw.RUnlock()
	return c.stepOutRead() + c.r
}

// Two sub-benchmarks: b.Run releases the benchmark lock and takes it back.
func BenchmarkTwoRuns(b *testing.B) {
	b.Run("one", func(b *testing.B) {})
	b.Run("two", func(b *testing.B) {})
}

// Still reported: a helper that releases the lock and does not take it
// back leaves the caller's access unprotected.
func (c *C) release() {
	c.mu.Unlock()
}

func (c *C) callsRelease() {
	c.mu.Lock()
	c.release()
	c.n++ // want `c.n written while c.mu is not held`
}

// Still reported: a helper that takes the lock for its own (the caller
// does not hold it) deadlocks when called with the lock held.
func (c *C) lockIt() {
	c.mu.Lock()
}

func (c *C) callsLockIt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lockIt() // want `call to c.lockIt locks c.mu, which is already locked here`
}

// Still reported: a helper that locks then unlocks and re-locks: the first
// Lock deadlocks against the caller's.
func (c *C) relockOwn() {
	c.mu.Lock()
	c.mu.Unlock()
	c.mu.Lock()
}

func (c *C) callsRelockOwn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.relockOwn() // want `call to c.relockOwn locks c.mu, which is already locked here`
}

// get takes the lock itself and leaves it free.
func (c *C) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Calling it without the lock leaves the lock known to be free.
func (c *C) callsGet() {
	c.get()
	c.n++ // want `c.n written while c.mu is not held`
}
