// Package rwsync is a reader/writer lock in the style of gVisor's
// pkg/sync: implemented with atomics, not on sync.RWMutex, and with
// DowngradeLock, which atomically turns a write lock into a read lock.
package rwsync

import "sync/atomic"

type RWMutex struct {
	state atomic.Int32
}

// +checklocksignore
func (rw *RWMutex) Lock() {
	for !rw.state.CompareAndSwap(0, -1) {
	}
}

// +checklocksignore
func (rw *RWMutex) Unlock() { rw.state.Store(0) }

// +checklocksignore
func (rw *RWMutex) RLock() {
	for {
		if n := rw.state.Load(); n >= 0 && rw.state.CompareAndSwap(n, n+1) {
			return
		}
	}
}

// +checklocksignore
func (rw *RWMutex) RUnlock() { rw.state.Add(-1) }

// DowngradeLock atomically unlocks rw for writing and locks it for reading.
//
// +checklocksignore
func (rw *RWMutex) DowngradeLock() { rw.state.Store(1) }
