// want package:`edges\(filesystem.renameMu -> dentry.dirMu, file.mu -> dentry.mu, dentry.mu -> file.mu\)`

// Package lastref covers lock order through a release of a reference: a
// DecRef takes its locks only on the branch where the count it just
// decremented reached zero, the destructor, which a caller that holds
// another reference never runs (gVisor's overlay dentry.DecRef, taking
// fs.renameMu only for the last reference). Those acquisitions make no
// order edge at the DecRef's callers. An acquisition under any other
// condition still counts: the deadlock between write and setStat stays
// reported.
package lastref

import (
	"sync"
	"sync/atomic"
)

type filesystem struct {
	renameMu sync.RWMutex
}

type dentry struct {
	fs       *filesystem
	refs     atomic.Int64
	raw      int64
	mu       sync.Mutex
	dirMu    sync.Mutex
	children map[string]*dentry // +checklocks:dirMu
}

// +checklocks:d.fs.renameMu
func (d *dentry) destroyLocked() {}

func (d *dentry) DecRef() {
	if r := d.refs.Add(-1); r == 0 {
		d.fs.renameMu.Lock()
		d.destroyLocked()
		d.fs.renameMu.Unlock()
	}
}

// A guard clause on the count.
func (d *dentry) decRefGuard() {
	if d.refs.Add(-1) > 0 {
		return
	}
	d.fs.renameMu.Lock()
	d.fs.renameMu.Unlock()
}

// The count returned by a helper (gVisor's gofer decRefNoCaching).
func (d *dentry) decRefNoCaching() int64 {
	r := d.refs.Add(-1)
	return r
}

func (d *dentry) decRefHelper() {
	if d.decRefNoCaching() == 0 {
		d.fs.renameMu.Lock()
		d.fs.renameMu.Unlock()
	}
}

// A switch on the count, and the sync/atomic function form (the refs
// template gVisor generates).
func (d *dentry) decRefSwitch() {
	v := atomic.AddInt64(&d.raw, -1)
	switch {
	case v < 0:
		panic("negative refs")
	case v == 0:
		d.fs.renameMu.Lock()
		d.fs.renameMu.Unlock()
	}
}

func (fs *filesystem) rename(parent *dentry) { // want rename:`acquires\(fs.renameMu, parent.dirMu\)`
	fs.renameMu.Lock()
	parent.dirMu.Lock()
	delete(parent.children, "old")
	parent.dirMu.Unlock()
	fs.renameMu.Unlock()
}

// Dropping a child's reference under dirMu: not its last, the caller's
// contract says, so renameMu is not taken here.
func (d *dentry) removeChild(child *dentry) { // want removeChild:`acquires\(d.dirMu\)`
	d.dirMu.Lock()
	delete(d.children, "old")
	child.DecRef()
	child.decRefGuard()
	child.decRefHelper()
	child.decRefSwitch()
	d.dirMu.Unlock()
}

type file struct {
	mu sync.Mutex
	d  *dentry
}

// update takes d.mu only when something was written: a condition on its
// argument, not on a count it released, so the acquisition counts.
func (f *file) update(n int) { // want update:`acquires\(f.d.mu\)`
	if n == 0 {
		return
	}
	f.d.mu.Lock()
	f.d.mu.Unlock()
}

func (f *file) write(n int) { // want write:`acquires\(f.mu, f.d.mu\)`
	f.mu.Lock()
	defer f.mu.Unlock()
	f.update(n) // want `potential deadlock: dentry.mu is acquired here \(f.d.mu\) while file.mu is held \(f.mu\)`
}

func (f *file) setStat() { // want setStat:`acquires\(f.d.mu, f.mu\)`
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	f.mu.Lock()
	f.mu.Unlock()
}
