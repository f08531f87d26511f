// Package guarantee backs docs/silence.md's "What silence means": for each Go
// construct that can reach a guarded field, an access made without the
// lock is reported, and the same access made with the lock held is not.
// Where guardvet stays silent although the lock is not held, the case is
// in the guaranteeexceptions fixture instead.
package guarantee

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type C struct {
	mu  sync.Mutex
	n   int   //guard:by mu
	n64 int64 //guard:by mu
}

//guard:holds c.mu
func (c *C) incLocked() { c.n++ }

type RW struct {
	mu sync.RWMutex
	m  map[string]int //guard:by mu
}

//guard:rholds r.mu
func (r *RW) getLocked(k string) int { return r.m[k] }

var (
	globalMu sync.Mutex
	total    int //guard:by globalMu
)

// ---- plain accesses, read and write modes ----

func plainBad(c *C) int {
	return c.n // want `c.n read while c.mu is not known to be held`
}

func plainGood(c *C) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func readLockedWriteBad(r *RW) {
	r.mu.RLock()
	r.m["a"] = 1 // want `r.m written while r.mu is read-locked`
	r.mu.RUnlock()
}

func readLockedReadGood(r *RW) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.m["a"] + r.getLocked("b")
}

func rholdsBad(r *RW) int {
	return r.getLocked("a") // want `call to r.getLocked needs r.mu read- or write-locked`
}

func holdsBad(c *C) {
	c.incLocked() // want `call to c.incLocked needs c.mu locked`
}

// sync/atomic does not replace the lock of a field that is only
// //guard:by.
func atomicOnLockedFieldBad(c *C) {
	atomic.AddInt64(&c.n64, 1) // want `c.n64 written while c.mu is not known to be held`
}

// unsafe.Sizeof and Offsetof do not evaluate their operand.
func sizeGood(c *C) uintptr {
	return unsafe.Sizeof(c.n) + unsafe.Offsetof(c.n)
}

// ---- package-level variables, init included ----

func init() {
	total = 1 // want `total written while globalMu is not known to be held`
}

func globalGood() {
	globalMu.Lock()
	total++
	globalMu.Unlock()
}

// ---- a field reached through a call result ----

func callResultFieldBad(get func() *C) {
	get().n++ // want `get\(\).n written while get\(\).mu is not known to be held \(it is reached through an expression guardvet cannot name\)`
}

func callResultFieldGood(get func() *C) {
	c := get()
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func callResultContractBad(get func() *C) {
	get().incLocked() // want `call to get\(\).incLocked needs get\(\).mu locked \(//guard:holds c.mu\), but get\(\).mu is not known to be held \(it is reached through an expression guardvet cannot name\)`
}

func callResultContractGood(get func() *C) {
	c := get()
	c.mu.Lock()
	c.incLocked()
	c.mu.Unlock()
}
