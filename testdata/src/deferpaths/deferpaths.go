// Package deferpaths covers deferred lock calls registered on different
// paths: each return runs only the defers registered on its own path.
package deferpaths

import "sync"

type C struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
	r  int //guard:by rw
}

func work(int) {}

// One defer per switch case: each return runs its own case's defer only.
func (c *C) deferPerCase(k int) int {
	switch k {
	case 0:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.n
	case 1:
		c.rw.RLock()
		defer c.rw.RUnlock()
		return c.r
	case 2:
		c.rw.Lock()
		defer c.rw.Unlock()
		c.r++
		return c.r
	case 3:
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
		return 0
	}
	return -1
}

// A defer in an early-return branch, and another defer of the same unlock
// on the fall-through path (portmapper's createOrGetMapping).
func (c *C) earlyDeferThenLaterDefer(reuse bool) int {
	c.mu.Lock()
	if reuse {
		defer c.mu.Unlock()
		return c.n
	}
	c.n++
	c.mu.Unlock()
	work(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// The same inside a loop with a switch (one packet per iteration).
func (c *C) deferInLoopCase(xs []int) int {
	for _, x := range xs {
		switch x {
		case 0:
			continue
		case 1:
			c.mu.Lock()
			defer c.mu.Unlock()
			c.n = x
			return x
		}
	}
	return 0
}

// An early-return branch with its own defer, and a deferred unlock on the
// fall-through path registered before it (derp's updateMap).
func (c *C) earlyDeferAfterCommonDefer(err error) error {
	c.rw.RLock()
	defer c.rw.RUnlock()
	if err != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
	return nil
}

// Still reported: on the same path two deferred unlocks of one lock.
func (c *C) twoDefersOnePath() {
	c.mu.Lock()
	defer c.mu.Unlock() // want `c.mu.Unlock\(\) but c.mu is not held`
	defer c.mu.Unlock()
	c.n++
}

// Still reported: a defer in one case and an explicit unlock before the
// return in the same case.
func (c *C) deferAndUnlockInCase(k int) {
	switch k {
	case 0:
		c.mu.Lock()
		defer c.mu.Unlock() // want `c.mu.Unlock\(\) but c.mu is not held`
		c.n++
		c.mu.Unlock()
		return
	case 1:
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n--
	}
}

// Still reported: a case that forgets its unlock.
func (c *C) caseMissingUnlock(k int) int {
	switch k {
	case 0:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.n
	case 1:
		c.mu.Lock()
		if c.n > 0 {
			return c.n // want `return with c.mu still locked, but later paths unlock it`
		}
		c.mu.Unlock()
	}
	return 0
}

// ---- the release handed over ----

type cleanup struct{ fns []func() }

func (c *cleanup) Add(f func()) { c.fns = append(c.fns, f) }
func (c *cleanup) Release()     { c.fns = nil }
func (c *cleanup) Clean() {
	for _, f := range c.fns {
		f()
	}
}

// The unlock is registered with a cleanup that a defer runs on the error
// paths (gVisor's newTask); the success path unlocks itself.
func (c *C) unlockByCleanup(fail, busy bool) error {
	var cu cleanup
	defer cu.Clean()
	c.mu.Lock()
	cu.Add(func() { c.mu.Unlock() })
	if fail {
		return errFail
	}
	if busy {
		return errFail
	}
	cu.Release()
	c.n++
	c.mu.Unlock()
	return nil
}

type errT struct{}

func (errT) Error() string { return "fail" }

var errFail error = errT{}

// The lock travels with the result (gVisor's signalLock): the caller
// unlocks what it gets.
func (c *C) lockCurrent(next func() *C) *C {
	cur := c
	for {
		cur.mu.Lock()
		n := next()
		if n == cur {
			return cur
		}
		cur.mu.Unlock()
		cur = n
	}
}

// Still reported: the lock is on something else than the result.
func (c *C) lockOther(o *C, fail bool) *C {
	c.mu.Lock()
	if fail {
		return o // want `return with c.mu still locked, but later paths unlock it`
	}
	c.mu.Unlock()
	return o
}
