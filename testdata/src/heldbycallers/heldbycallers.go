// Package heldbycallers covers unannotated helpers that every caller calls
// with the lock held: they are checked as if they declared //guard:holds,
// so their accesses are not reported, unless something could reach them
// without the lock (a caller that does not hold it, a method value, a go
// statement, another package).
package heldbycallers

import "sync"

type C struct {
	mu sync.RWMutex
	n  int            //guard:by mu
	m  map[string]int //guard:by mu
}

// bumpLocked-style helper without the name: both callers hold c.mu.
func (c *C) bump() { c.n++ }

func (c *C) Inc() {
	c.mu.Lock()
	c.bump()
	c.mu.Unlock()
}

func (c *C) IncTwice() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bump()
	c.bump()
}

// put is reached through set, itself called only with the lock held.
func (c *C) put(k string) { c.m[k] = c.n }

func (c *C) set(k string) { c.put(k) }

func (c *C) Set(k string) {
	c.mu.Lock()
	c.set(k)
	c.mu.Unlock()
}

// clear takes the object as a parameter, not the receiver.
func clear(c *C) { c.n = 0 }

func (c *C) Reset() {
	c.mu.Lock()
	clear(c)
	c.mu.Unlock()
}

// count recurses with the lock held.
func (c *C) count(depth int) int {
	if depth == 0 {
		return c.n
	}
	return c.count(depth - 1)
}

func (c *C) Count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.count(3)
}

// read is called with the read lock only; a read needs no more.
func (c *C) read() int { return c.n }

func (c *C) Read() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.read()
}

// ---- reported: something reaches the helper without the lock ----

// decr has one caller without the lock.
func (c *C) decr() {
	c.n-- // want `c.n written while c.mu is not known to be held`
}

func (c *C) Decr() {
	c.mu.Lock()
	c.decr()
	c.mu.Unlock()
}

func (c *C) DecrUnlocked() { c.decr() }

// store's callers hold only the read lock; a write needs the write lock.
func (c *C) store() {
	c.n = 1 // want `c.n written while c.mu is not known to be held`
}

func (c *C) Store() {
	c.mu.RLock()
	c.store()
	c.mu.RUnlock()
}

// hook is also handed out as a method value.
func (c *C) hook() {
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

func (c *C) Hook() func() {
	c.mu.Lock()
	c.hook()
	c.mu.Unlock()
	return c.hook
}

// spawn is started with go under the lock: the goroutine does not hold it.
func (c *C) spawn() {
	c.n = 3 // want `c.n written while c.mu is not known to be held`
}

func (c *C) Spawn() {
	c.mu.Lock()
	c.spawn()
	go c.spawn()
	c.mu.Unlock()
}

// Exported can be called from other packages, which cannot hold c.mu.
func (c *C) Exported() {
	c.n = 4 // want `c.n written while c.mu is not known to be held`
}

func (c *C) CallExported() {
	c.mu.Lock()
	c.Exported()
	c.mu.Unlock()
}

// orphan has no caller at all.
func (c *C) orphan() {
	c.n = 5 // want `c.n written while c.mu is not known to be held`
}

// loop is called only from itself: nothing outside the cycle holds c.mu.
func (c *C) loop(i int) {
	c.n = i // want `c.n written while c.mu is not known to be held`
	if i > 0 {
		c.loop(i - 1)
	}
}
