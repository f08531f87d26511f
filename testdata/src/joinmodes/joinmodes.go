// Package joinmodes covers a lock read-locked on one path and locked on
// the other: held on every path, so enough for a read, not for a write,
// and either unlock may follow on its own path.
package joinmodes

import "sync"

type T struct {
	mu sync.RWMutex
	n  int //guard:by mu
}

// A read after the join is covered on every path.
func read(t *T, exclusive bool) int {
	if exclusive {
		t.mu.Lock()
	} else {
		t.mu.RLock()
	}
	v := t.n
	if exclusive {
		t.mu.Unlock()
	} else {
		t.mu.RUnlock()
	}
	return v
}

// A write needs the write lock on every path.
func write(t *T, exclusive bool) {
	if exclusive {
		t.mu.Lock()
	} else {
		t.mu.RLock()
	}
	t.n++ // want `t.n written while t.mu is read-locked on some paths and locked on others`
	if exclusive {
		t.mu.Unlock()
	} else {
		t.mu.RUnlock()
	}
}

// Locked on one path only is still reported for a read.
func maybe(t *T, lock bool) int {
	if lock {
		t.mu.RLock()
	}
	v := t.n // want `t.n read while t.mu is held on some paths only`
	if lock {
		t.mu.RUnlock()
	}
	return v
}
