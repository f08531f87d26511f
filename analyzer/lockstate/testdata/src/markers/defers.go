package markers

// Deferred calls run at return, last registered first: the lock state a
// function returns with, and the state a deferred here() sees, are those
// after the later-registered defers ran.

// Dropped and re-taken at return: the caller's lock is held again.
func relockAtReturn(c *C) { // effects: effects() noescape[0] retakes c.mu
	c.mu.Unlock()
	defer c.mu.Lock()
	here() // state: c.mu=not held
}

// The re-lock registered last runs first, then the unlock registered
// first: the function returns with c.mu free.
func relockInsideCriticalSection(c *C) { // effects: effects(excludes c.mu) noescape[0]
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mu.Unlock()
	defer c.mu.Lock()
}

// The other order: unlock first, then the lock registered first.
func unlockThenRelock(c *C) { // effects: effects(acquires c.mu) noescape[0]
	c.mu.Lock()
	defer c.mu.Lock()
	defer c.mu.Unlock()
}

// The same with read locks.
func rrelockAtReturn(c *C) { // effects: effects(racquires c.rw) noescape[0]
	c.rw.RLock()
	defer c.rw.RLock()
	defer c.rw.RUnlock()
}

// A deferred here() registered before the re-lock sees the lock held
// again; one registered after it sees it free.
func deferredSeesLaterDefers(c *C) { // effects: effects() noescape[0] retakes c.mu
	defer func() {
		here() // state: c.mu=locked
	}()
	c.mu.Unlock()
	defer c.mu.Lock()
	defer func() {
		here() // state: c.mu=not held
	}()
}

// A deferred lock registered on some paths only: held on some paths at
// return.
func condRelock(c *C, b bool) { // effects: effects() noescape[0 1]
	c.mu.Unlock()
	if b {
		defer c.mu.Lock()
	}
	defer func() {
		here() // state: c.mu=not held
	}()
}

// A deferred call inside a loop runs after the loop, at return, with the
// locks as they are on the paths from the defer: the loop's own unlock
// has run.
func deferInLoop(c *C, xs []int) { // effects: effects() noescape[0 1]
	for range xs {
		c.rw.RLock()
		defer func() {
			here() // state: c.rw=not held
		}()
		c.rw.RUnlock()
	}
}

// A deferred call inside a loop that keeps the lock at its end: held at
// return.
func deferInLoopHeld(c *C, xs []int) { // effects: effects(acquires c.mu) noescape[0 1]
	c.mu.Lock()
	for range xs {
		defer func() {
			here() // state: c.mu=locked
		}()
	}
	c.mu.Unlock()
	c.mu.Lock()
}

// A deferred here() inside an if runs at every return after it, with the
// locks of that return.
func condDeferLaterLock(c *C, b bool) { // effects: effects(acquires c.mu) noescape[0 1]
	if b {
		defer func() {
			here() // state: c.mu=locked
		}()
	}
	c.mu.Lock()
}

// Dropped and re-taken on the paths through the if only: the closure,
// registered last, runs first, before the re-lock, so c.mu is not held
// there on those paths (and nothing is known of it on the others).
func condDropAndRelock(c *C, b bool) { // effects: effects() noescape[0 1]
	if b {
		c.mu.Unlock()
		defer c.mu.Lock()
	}
	defer func() {
		here() // state: c.mu=not known to be held
	}()
}

// Deferred calls run in the reverse order of their defer statements, not
// of the blocks of the control-flow graph: the closure, registered after
// the loop, runs before the re-locks registered inside it.
func deferOrderAcrossLoop(c *C, xs []int) { // effects: effects() noescape[0 1]
	for range xs {
		if len(xs) > 1 {
			defer c.mu.Lock()
		}
	}
	defer func() {
		here() // state: c.mu=not held
	}()
	c.mu.Unlock()
}
