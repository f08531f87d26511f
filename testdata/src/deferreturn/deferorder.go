package deferreturn

import "sync"

// Deferred calls take their locks at return: the order edges and the
// "already held" checks are those of the locks held at the returns, after
// the deferred calls registered later (which run first).

// File: Close locks f.mu.
type File struct {
	mu   sync.Mutex
	open bool //guard:by mu
}

func (f *File) Close() {
	f.mu.Lock()
	f.open = false
	f.mu.Unlock()
}

// Table, Ledger, Index, Cache, Pool: one lock class each, each ordered before File
// by a function of its own, so an edge from File to one of them is a
// potential deadlock.
type Table struct {
	rw   sync.RWMutex
	rows int //guard:by rw
}

type Ledger struct {
	rw   sync.RWMutex
	rows int //guard:by rw
}

type Index struct {
	mu   sync.Mutex
	keys int //guard:by mu
}

type Cache struct {
	mu   sync.Mutex
	hits int //guard:by mu
}

type Pool struct {
	mu   sync.Mutex
	free int //guard:by mu
}

// The reverse orders: File.mu, then each of the others.
func closeThenTable(f *File, t *Table) {
	f.mu.Lock()
	t.rw.RLock()
	_ = t.rows
	t.rw.RUnlock()
	f.mu.Unlock()
}

func closeThenLedger(f *File, l *Ledger) {
	f.mu.Lock()
	l.rw.RLock()
	_ = l.rows
	l.rw.RUnlock()
	f.mu.Unlock()
}

func closeThenIndex(f *File, x *Index) {
	f.mu.Lock()
	x.mu.Lock() // want `potential deadlock: Index.mu is acquired here \(x.mu\) while File.mu is held \(f.mu\), but elsewhere the order is reversed \(Index.mu then File.mu at deferorder.go:\d+\)`
	x.keys++
	x.mu.Unlock()
	f.mu.Unlock()
}

func closeThenCache(f *File, c *Cache) {
	f.mu.Lock()
	c.mu.Lock() // want `potential deadlock: Cache.mu is acquired here \(c.mu\) while File.mu is held \(f.mu\), but elsewhere the order is reversed \(Cache.mu then File.mu at deferorder.go:\d+\)`
	c.hits++
	c.mu.Unlock()
	f.mu.Unlock()
}

func closeThenPool(f *File, p *Pool) {
	f.mu.Lock()
	p.mu.Lock()
	p.free++
	p.mu.Unlock()
	f.mu.Unlock()
}

// A defer inside a loop that unlocks at the end of each iteration: the
// files are closed at return, after the last RUnlock, so there is no
// Table.rw then File.mu edge.
func (t *Table) openAll(fs []*File) int {
	n := 0
	for _, f := range fs {
		t.rw.RLock()
		n += t.rows
		defer f.Close()
		t.rw.RUnlock()
	}
	return n
}

// The same with a deferred closure.
func (l *Ledger) openAllClosure(fs []*File) {
	for _, f := range fs {
		l.rw.RLock()
		_ = l.rows
		defer func() {
			f.Close()
		}()
		l.rw.RUnlock()
	}
}

// Still reported: the lock taken before the loop is held at return, and
// the deferred closes run before its deferred unlock.
func (x *Index) closeUnderIndex(fs []*File) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, f := range fs {
		x.keys++
		defer f.Close() // the reverse of closeThenIndex's order
	}
}

// Deferred before the lock is taken: it runs after the deferred unlock,
// with nothing held.
func (c *Cache) closeAfterUnlock(f *File) {
	defer f.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits++
}

// Still reported: deferred after the lock is taken, it runs before the
// deferred unlock, with c.mu held.
func (c *Cache) closeBeforeUnlock(f *File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer f.Close() // the reverse of closeThenCache's order
	c.hits++
}

// A conditional defer runs at the returns after it, with their locks:
// here the pool's lock is released by then.
func (p *Pool) maybeClose(f *File, done bool) {
	if done {
		defer f.Close()
	}
	p.mu.Lock()
	p.free++
	p.mu.Unlock()
}

// ---- the same lock ----

// A deferred call of a method that locks the lock the function drops
// before returning: not held at return, no self-deadlock.
func (f *File) reopen() {
	f.mu.Lock()
	f.open = true
	f.mu.Unlock()
	defer f.Close()
}

// A deferred Close after a deferred unlock of the same lock: the unlock,
// registered later, runs first.
func (f *File) closeAfterOwnUnlock() {
	defer f.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open = true
}

// Still reported: the lock is held at return, so the deferred Close blocks
// on it.
func (f *File) closeWhileHeld() {
	f.mu.Lock()
	f.open = true
	defer f.Close() // want `call to f.Close locks f.mu, which is already held here`
	defer f.mu.Lock()
	f.mu.Unlock()
}

// Still reported: registered on some paths only, and the lock is held at
// the return it runs at.
func (f *File) closeIfWhileHeld(now bool) {
	if now {
		defer f.Close() // want `call to f.Close locks f.mu, which is already held here; sync mutexes are not reentrant`
	}
	f.mu.Lock()
	f.open = true
	defer f.mu.Lock()
	f.mu.Unlock()
}

// Still reported: a path that panics runs the deferred calls with the
// locks held where it panics; with no return reached they are checked in
// the state at the defer statement.
func (f *File) closeAndPanic() {
	f.mu.Lock()
	defer f.Close() // want `call to f.Close locks f.mu, which is already held here`
	panic("closed")
}
