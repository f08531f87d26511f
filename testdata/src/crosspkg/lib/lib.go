// Package lib declares guarded fields and lock contracts that package use
// relies on across the package boundary.
package lib

import "sync"

type C struct {
	mu sync.Mutex
	N  int //guard:by mu

	Mu sync.RWMutex
	M  map[string]int //guard:by Mu
}

// Lock2 and Unlock2 are unannotated lock helpers: their effects are
// inferred and exported as facts. Nothing in this package calls them.
func (c *C) Lock2()   { c.mu.Lock() }
func (c *C) Unlock2() { c.mu.Unlock() }

// RLockM and RUnlockM are read-lock helpers.
func (c *C) RLockM()   { c.Mu.RLock() }
func (c *C) RUnlockM() { c.Mu.RUnlock() }

// LockBoth calls a helper: its effect is inferred transitively.
func (c *C) LockBoth() {
	c.lockMu()
	c.Mu.Lock()
}

func (c *C) UnlockBoth() {
	c.Mu.Unlock()
	c.mu.Unlock()
}

func (c *C) lockMu() { c.mu.Lock() }

//guard:holds c.mu
func (c *C) IncLocked() { c.N++ }

//guard:rholds c.Mu
func (c *C) Lookup(k string) int { return c.M[k] }

//guard:excludes c.mu
func (c *C) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.N++
}

//guard:acquires c.mu
func (c *C) Acquire() { c.mu.Lock() }

//guard:releases c.mu
func (c *C) Release() { c.mu.Unlock() }

// LockPair is a package function with parameter paths.
//
//guard:holds a.mu b.mu
func LockedPair(a, b *C) int { return a.N + b.N }

func (c *C) racy() int {
	return c.N // want `c.N read while c.mu is not known to be held`
}

func (c *C) ok() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.N
}
