// Package tally is a dependency of the shared fixtures: its methods'
// accesses reach the importer through the shared rule's package fact.
package tally

import (
	"sync"
	"sync/atomic"
)

// Counter counts without a lock: not safe for concurrent use.
type Counter struct{ n int }

// Add bumps the count.
func (c *Counter) Add() { c.n++ }

// Get reads it.
func (c *Counter) Get() int { return c.n }

// Locked counts under its own mutex.
type Locked struct {
	mu sync.Mutex
	n  int
}

// Add bumps the count under the lock.
func (l *Locked) Add() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

// Atomic counts with sync/atomic.
type Atomic struct{ n int64 }

// Add bumps the count atomically.
func (a *Atomic) Add() { atomic.AddInt64(&a.n, 1) }

// Level is a package-level setting.
var Level = 1

// SetLevel changes it.
func SetLevel(l int) { Level = l }

// Store writes through its pointer parameter.
func Store(p *int, v int) { *p = v }

// hits is the package's own: importers cannot name it.
var hits int

// Hit counts a hit without a lock (a race of this package's, not of its
// callers').
func Hit() { hits++ }
