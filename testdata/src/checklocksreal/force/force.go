// Package force covers +checklocksforce where gVisor's filesystems put it:
// on a return whose lock state differs from the contract on purpose, and
// on a call whose lock the caller holds for a reason no annotation says
// (pkg/sentry/fsimpl/gofer/gofer.go, dentry.checkCachingLocked). A forced
// line says the lock state there is what the code needs; what it forces
// is the caller's, not a lock this function took and must release.
package force

import "sync"

type filesystem struct {
	renameMu sync.RWMutex
	cached   int // +checklocks:renameMu
}

type dentry struct {
	fs   *filesystem
	refs int
	dead bool
}

// +checklocks:d.fs.renameMu
func (d *dentry) evictLocked() { d.fs.cached-- }

// +checklocks:d.fs.renameMu
func (d *dentry) destroyLocked() { d.fs.cached-- }

// The caller holds renameMu for writing when renameMuWriteLocked is true;
// otherwise this function takes it for the destroy.
func (d *dentry) checkCachingLocked(renameMuWriteLocked bool) {
	if d.refs != 0 {
		return
	}
	if d.dead {
		if !renameMuWriteLocked {
			d.fs.renameMu.Lock()
			defer d.fs.renameMu.Unlock()
			if d.refs != 0 {
				return
			}
		}
		d.destroyLocked() // +checklocksforce: renameMu must be acquired at this point.
		return
	}
	if renameMuWriteLocked {
		d.evictLocked() // +checklocksforce: renameMu is locked in this case.
		return
	}
	d.fs.renameMu.Lock()
	d.evictLocked()
	d.fs.renameMu.Unlock()
}

// The same with a field access forced.
func (d *dentry) peekLocked(renameMuWriteLocked bool) int {
	if renameMuWriteLocked {
		return d.fs.cached // +checklocksforce: renameMu is locked in this case.
	}
	d.fs.renameMu.RLock()
	n := d.fs.cached
	d.fs.renameMu.RUnlock()
	return n
}

// A return that keeps a lock the function took is still a leak, forced
// line before it or not.
func (d *dentry) leak() {
	d.fs.renameMu.Lock()
	d.evictLocked() // +checklocksforce: held anyway.
	if d.dead {
		return // want `return with d.fs.renameMu still locked`
	}
	d.fs.renameMu.Unlock()
}

type table struct {
	mu    sync.Mutex
	ready bool
	n     int // +checklocks:mu
}

// lockIfReady returns without the lock when the table is not ready; its
// callers check ready first, which the return's force says.
//
// +checklocksacquire:t.mu
func (t *table) lockIfReady() {
	if !t.ready {
		return // +checklocksforce: callers check ready first.
	}
	t.mu.Lock()
}

// The twin without the force is a broken contract.
//
// +checklocksacquire:t.mu
func (t *table) lockIfReadyUnforced() {
	if !t.ready {
		return // want `lockIfReadyUnforced returns with t.mu not held, breaking its //guard:acquires t.mu contract`
	}
	t.mu.Lock()
}

// +checklocksrelease:t.mu
func (t *table) unlock() { t.mu.Unlock() }

func (t *table) use() {
	t.lockIfReady()
	t.n++
	t.unlock()
}
