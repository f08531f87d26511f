// Package checklocks is annotated in gVisor's checklocks dialect, mixed
// with //guard: directives; every rule applies to both.
package checklocks

import (
	"sync"
	"sync/atomic"
)

// Mutex is a deadlock-detecting wrapper, as projects use: checklocks
// recognises locks by type name; guardvet by method set.
type Mutex struct {
	sync.Mutex
}

type Conn struct {
	mu Mutex

	// +checklocks:mu
	state int

	// +checklocks:mu
	buf []byte

	n int //guard:by mu

	// +checkatomic
	hits int64

	// +checklocksignore
	debug int
}

func (c *Conn) Good() {
	c.mu.Lock()
	c.state = 1
	c.buf = append(c.buf, 1)
	c.n++
	c.mu.Unlock()
	atomic.AddInt64(&c.hits, 1)
	c.debug = 2
}

func (c *Conn) Racy() int {
	return c.state // want `c.state read while c.mu is not known to be held`
}

func (c *Conn) RacyGuard() int {
	return c.n // want `c.n read while c.mu is not known to be held`
}

func (c *Conn) PlainAtomic() int64 {
	return c.hits // want `c.hits read without sync/atomic`
}

// +checklocks:c.mu
func (c *Conn) setStateLocked(s int) { c.state = s }

// +checklocksread:c.mu
func (c *Conn) stateLocked() int { return c.state }

// +checklocksacquire:c.mu
func (c *Conn) lock() { c.mu.Lock() }

// +checklocksrelease:c.mu
func (c *Conn) unlock() { c.mu.Unlock() }

// +checklocksexclude:c.mu
func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = 0
}

func (c *Conn) Contracts() {
	c.setStateLocked(1) // want `call to c.setStateLocked needs c.mu locked \(//guard:holds c.mu\)`
	c.lock()
	c.setStateLocked(2)
	_ = c.stateLocked()
	c.Close() // want `call to c.Close needs c.mu not held \(//guard:excludes c.mu\)`
	c.unlock()
}

// +checklocksignore
func (c *Conn) Unchecked() int { return c.state }

func (c *Conn) LineIgnore() int {
	return c.state // +checklocksignore
}

// Stricter than checklocks: a map store under a read lock.
type Table struct {
	mu sync.RWMutex
	// +checklocks:mu
	m map[string]int
}

func (t *Table) Put(k string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.m[k] = 1 // want `t.m written while t.mu is read-locked`
}

// Generics.
type Box[T any] struct {
	mu sync.Mutex
	// +checklocks:mu
	v T
}

func (b *Box[T]) Get() T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func (b *Box[T]) Peek() T {
	return b.v // want `b.v read while b.mu is not known to be held`
}

// +checklocksalias:inner.mu=mu
type Outer struct {
	mu    sync.Mutex
	inner struct{ mu sync.Mutex }
	// +checklocks:mu
	x int
}

// inner.mu is another name for mu: holding it covers x.
func (o *Outer) ViaAlias() int {
	o.inner.mu.Lock()
	defer o.inner.mu.Unlock()
	return o.x
}

// Forced: the lock counts as held from the annotated line on.
func (o *Outer) Forced() int {
	a := o.x // +checklocksforce
	return a + o.x
}

func (o *Outer) NotForced() int {
	return o.x // want `o.x read while o.mu is not known to be held`
}

// Shared is used from another package.
type Shared struct {
	Mu sync.Mutex
	// +checklocks:Mu
	Count int
}
