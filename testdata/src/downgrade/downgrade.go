// Package downgrade covers DowngradeLock: a write lock turned into a read
// lock without letting another writer in (gVisor's sync.RWMutex, and the
// generated wrappers around it). After it the lock is read-locked: reads
// are covered, writes are not, and it is released with RUnlock.
package downgrade

import "downgrade/rwsync"

// activeRWMutex is a generated wrapper, as gVisor's locking tool writes
// them: every method delegates to the lock inside.
type activeRWMutex struct {
	mu rwsync.RWMutex
}

// +checklocksignore
func (m *activeRWMutex) Lock() { m.mu.Lock() }

// +checklocksignore
func (m *activeRWMutex) Unlock() { m.mu.Unlock() }

// +checklocksignore
func (m *activeRWMutex) RLock() { m.mu.RLock() }

// +checklocksignore
func (m *activeRWMutex) RUnlock() { m.mu.RUnlock() }

// +checklocksignore
func (m *activeRWMutex) DowngradeLock() { m.mu.DowngradeLock() }

type MM struct {
	activeMu activeRWMutex
	active   int // +checklocks:activeMu

	mappingMu rwsync.RWMutex
	mappings  int // +checklocks:mappingMu
}

// The mm shape: fault in under the write lock, then downgrade and keep
// reading under the read lock.
func (mm *MM) HandleFault() int {
	mm.activeMu.Lock()
	mm.active++
	mm.activeMu.DowngradeLock()
	n := mm.active
	mm.activeMu.RUnlock()
	return n
}

// Both locks: one downgraded, one released as it was taken.
func (mm *MM) MLock() {
	mm.mappingMu.Lock()
	mm.activeMu.Lock()
	mm.mappings++
	mm.mappingMu.DowngradeLock()
	mm.active = mm.mappings
	mm.activeMu.Unlock()
	_ = mm.mappings
	mm.mappingMu.RUnlock()
}

// An early return after the downgrade releases the read lock.
func (mm *MM) Early(skip bool) int {
	mm.mappingMu.Lock()
	mm.mappings++
	mm.mappingMu.DowngradeLock()
	if skip {
		mm.mappingMu.RUnlock()
		return 0
	}
	n := mm.mappings
	mm.mappingMu.RUnlock()
	return n
}

// After the downgrade a write is under a read lock.
func (mm *MM) WriteAfter() {
	mm.mappingMu.Lock()
	mm.mappingMu.DowngradeLock()
	mm.mappings++ // want `mm.mappings written while mm.mappingMu is read-locked`
	mm.mappingMu.RUnlock()
}

// And Unlock no longer matches what is held.
func (mm *MM) UnlockAfter() {
	mm.mappingMu.Lock()
	mm.mappingMu.DowngradeLock()
	mm.mappingMu.Unlock() // want `mm.mappingMu.Unlock\(\) but mm.mappingMu is read-locked here; use RUnlock`
}

// Only a write lock can be downgraded.
func (mm *MM) DowngradeRead() {
	mm.mappingMu.RLock()
	mm.mappingMu.DowngradeLock() // want `mm.mappingMu.DowngradeLock\(\) but mm.mappingMu is only read-locked here`
	mm.mappingMu.RUnlock()
}

func (mm *MM) DowngradeUnlocked() {
	mm.mappingMu.Lock()
	mm.mappings++
	mm.mappingMu.Unlock()
	mm.mappingMu.DowngradeLock() // want `mm.mappingMu.DowngradeLock\(\) but mm.mappingMu is not held here`
}

// downgradeAndRead steps down from its caller's write lock: a helper
// whose callers hold mappingMu for writing and get it back read-locked.
func (mm *MM) downgradeAndRead() int {
	mm.mappingMu.DowngradeLock()
	return mm.mappings
}

func (mm *MM) ThroughHelper() int {
	mm.mappingMu.Lock()
	mm.mappings++
	n := mm.downgradeAndRead()
	n += mm.mappings
	mm.mappingMu.RUnlock()
	return n
}

func (mm *MM) ThroughHelperThenWrite() {
	mm.mappingMu.Lock()
	mm.downgradeAndRead()
	mm.mappings = 0 // want `mm.mappings written while mm.mappingMu is read-locked`
	mm.mappingMu.RUnlock()
}

// A declared contract still describes the caller: the body holds
// activeMu for writing on entry and downgrades it; it returns with it
// read-locked, which +checklocksreleaseread does not say.
//
// +checklocks:mm.activeMu
func (mm *MM) populate() {
	mm.active++
	mm.activeMu.DowngradeLock()
} // want `populate returns with mm.activeMu read-locked, breaking its //guard:holds mm.activeMu contract`
