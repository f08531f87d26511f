// Package markers pins the engine's lock state at program points: each
// call of here() carries the expected state of the locks it names, as
// "// state: PATH=MODE; PATH=MODE" (modes as lockstate.Mode prints them).
// A lock the comment does not name is not checked. An "// effects:"
// comment on a function's line pins its inferred Effects (Result.Effects):
// what it does to its callers' locks.
package markers

import "sync"

func here() {}

type C struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
}

func lockUnlock(c *C) { // effects: effects(excludes c.mu) noescape[0]
	here() // state: c.mu=not known to be held
	c.mu.Lock()
	here() // state: c.mu=locked
	c.mu.Unlock()
	here() // state: c.mu=not held
}

func readLock(c *C) { // effects: effects(excludes c.rw) noescape[0]
	c.rw.RLock()
	here() // state: c.rw=read-locked; c.mu=not known to be held
	c.rw.RUnlock()
	here() // state: c.rw=not held
}

func tryLock(c *C) { // effects: effects() noescape[0]
	if c.mu.TryLock() {
		here() // state: c.mu=locked
		c.mu.Unlock()
	} else {
		here() // state: c.mu=not known to be held
	}
	here() // state: c.mu=not known to be held
}

func deferred(c *C) { // effects: effects(excludes c.mu) noescape[0]
	c.mu.Lock()
	defer c.mu.Unlock()
	here() // state: c.mu=locked
}

func joinMaybe(c *C, b bool) { // effects: effects() noescape[0 1]
	if b {
		c.mu.Lock()
	}
	here() // state: c.mu=held on some paths only
	if b {
		c.mu.Unlock()
	}
}

func joinEither(c *C, b bool) { // effects: effects() noescape[0 1]
	if b {
		c.rw.RLock()
	} else {
		c.rw.Lock()
	}
	here() // state: c.rw=read-locked on some paths and locked on others
}

func joinReleased(c *C, b bool) { // effects: effects(excludes c.mu) noescape[0 1]
	c.mu.Lock()
	if b {
		c.mu.Unlock()
		here() // state: c.mu=not held
		return
	}
	here() // state: c.mu=locked
	c.mu.Unlock()
}

func reassigned(c, d *C) { // effects: effects() noescape[1]
	c.mu.Lock()
	old := c
	c = d
	here() // state: c.mu=not known to be held; old.mu=locked
	old.mu.Unlock()
}

func loop(c *C, xs []int) { // effects: effects() noescape[0 1]
	for range xs {
		here() // state: c.mu=not known to be held
		c.mu.Lock()
		here() // state: c.mu=locked
		c.mu.Unlock()
	}
	here() // state: c.mu=not known to be held
}

//guard:holds c.mu
func contract(c *C) {
	here() // state: c.mu=locked
}

//guard:releases c.mu
func release(c *C) {
	here() // state: c.mu=locked
	c.mu.Unlock()
}

func afterRelease(c *C) { // effects: effects(excludes c.mu)
	c.mu.Lock()
	release(c)
	here() // state: c.mu=not held
}

func helper(c *C) { c.mu.Lock() } // effects: effects(acquires c.mu) noescape[0]

func afterHelper(c *C) { // effects: effects(excludes c.mu) noescape[0]
	helper(c)
	here() // state: c.mu=locked
	c.mu.Unlock()
}

func pause(c *C) { // effects: effects() noescape[0] retakes c.mu
	c.mu.Unlock()
	here() // state: c.mu=not held
	c.mu.Lock()
}

func afterPause(c *C) { // effects: effects(excludes c.mu) noescape[0]
	c.mu.Lock()
	here() // state: c.mu=locked
	pause(c)
	here() // state: c.mu=locked
	c.mu.Unlock()
}
