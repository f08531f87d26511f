// Package lib has types other packages keep in guarded value fields: whether
// a method writes through its receiver travels to them as a fact.
package lib

import (
	"sync"
	"unsafe"
)

// Table is a map with a lookup that only reads and a store that writes.
type Table struct {
	m map[string]int
}

// Get only reads through t.
func (t *Table) Get(k string) (int, bool) {
	v, ok := t.m[k]
	return v, ok
}

// Len only reads, through another read-only method.
func (t *Table) Len() int { return t.size() }

func (t *Table) size() int { return len(t.m) }

// Put writes t.m.
func (t *Table) Put(k string, v int) {
	if t.m == nil {
		t.m = map[string]int{}
	}
	t.m[k] = v
}

// Reset writes through a helper.
func (t *Table) Reset() { t.clear() }

func (t *Table) clear() { clear(t.m) }

// All returns an iterator: the closure only reads through t.
func (t *Table) All() func(func(string, int) bool) {
	return func(yield func(string, int) bool) {
		for k, v := range t.m {
			if !yield(k, v) {
				return
			}
		}
	}
}

// Self hands its receiver back: callers may write through it.
func (t *Table) Self() *Table { return t }

// Locked writes only under its own lock: safe under a caller's read lock.
type Locked struct {
	mu sync.Mutex
	n  int
}

// Inc writes l.n with l.mu held.
func (l *Locked) Inc() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

// IncRacy writes l.n without it.
func (l *Locked) IncRacy() { l.n++ }

// Hist keeps a fixed array.
type Hist struct {
	buf [4]byte
}

// Fill writes the array through a slice of it.
func (h *Hist) Fill() { fill(h.buf[:]) }

// Sum only reads it.
func (h *Hist) Sum() int {
	n := 0
	for _, b := range h.buf[:] {
		n += int(b)
	}
	return n
}

func fill(b []byte) {
	for i := range b {
		b[i] = 1
	}
}

// Visit hands its receiver to a function value: unknown, so a write.
func (t *Table) Visit(f func(*Table)) { f(t) }

// Sink hands its receiver to an interface method: unknown, so a write.
func (t *Table) Sink(s interface{ Take(*Table) }) { s.Take(t) }

// Raw hands out its address through unsafe: a write.
func (t *Table) Raw() unsafe.Pointer { return unsafe.Pointer(t) }

// Ext calls a function with no body (assembly): a write.
func (t *Table) Ext() { external(t) }

func external(t *Table)
