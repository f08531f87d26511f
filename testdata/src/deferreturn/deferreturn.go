// Package deferreturn covers deferred calls that run at return, last
// registered first: lock operations deferred to re-take a lock the
// function dropped (mu.Unlock(); defer mu.Lock()), and deferred calls
// whose locks are taken at return, with the locks held there, not at the
// defer statement (a defer inside a loop runs after the loop's unlocks).
package deferreturn

import "sync"

type C struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
	r  int //guard:by rw
	// lim is handed back by a deferred closure (gVisor's tcp
	// readFromPayloader).
	lim int //guard:by mu
}

func work() {}

// ---- dropped and re-taken at return ----

// Called with c.mu held, it drops it for a while and takes it back at
// return: the caller's lock is held again, as its contract says.
//
//guard:holds c.mu
func (c *C) dropAndRelock() {
	c.mu.Unlock()
	defer c.mu.Lock()
	work()
}

// The same with a checklocks annotation.
// +checklocks:c.mu
func (c *C) dropAndRelockChecklocks() {
	c.mu.Unlock()
	defer c.mu.Lock()
	work()
}

// The same with a read lock.
//
//guard:rholds c.rw
func (c *C) dropAndRelockRead() {
	c.rw.RUnlock()
	defer c.rw.RLock()
	work()
}

// The re-lock in a deferred closure.
//
//guard:holds c.mu
func (c *C) dropAndRelockClosure() {
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
	}()
	work()
}

// Only on the paths that dropped it, with a deferred closure handing a
// field back under the re-taken lock (gVisor's tcp readFromPayloader).
//
//guard:holds c.mu
func (c *C) dropIfNotAtomic(atomic bool) int {
	lim := c.lim
	if !atomic {
		defer func() {
			c.lim = lim
		}()
		c.lim = 0
		c.mu.Unlock()
		defer c.mu.Lock()
	}
	work()
	return lim
}

// Still reported: dropped and not taken back.
//
//guard:holds c.mu
func (c *C) dropNoRelock() {
	c.mu.Unlock()
	work()
} // want `dropNoRelock returns with c.mu not held, breaking its //guard:holds c.mu contract`

// Still reported: the re-lock is deferred, so the access between the
// unlock and the return is not covered.
//
//guard:holds c.mu
func (c *C) accessWhileDropped() {
	c.mu.Unlock()
	defer c.mu.Lock()
	c.n++ // want `c.n written while c.mu is not held`
}

// Re-taken on some paths only: c.mu is held on some paths at return, and
// a contract is not checked against a lock held on some paths only.
//
//guard:holds c.mu
func (c *C) relockOnSomePaths(again bool) {
	c.mu.Unlock()
	if again {
		defer c.mu.Lock()
	}
	work()
} // gap: `relockOnSomePaths returns with c.mu held on some paths only`

// Still reported: a deferred unlock registered before the re-lock runs
// after it, so the function returns with c.mu free.
//
//guard:holds c.mu
func (c *C) relockThenUnlock() {
	defer c.mu.Unlock()
	c.mu.Unlock()
	defer c.mu.Lock()
	work()
} // want `relockThenUnlock returns with c.mu not held`
