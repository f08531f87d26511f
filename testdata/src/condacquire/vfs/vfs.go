// Package vfs declares functions that acquire a lock only when they
// succeed, as gVisor's vfs.PrepareDeleteDentry does: the lock is rooted
// at a parameter, the result is an error, and the error returns say so
// with +checklocksforce (or say nothing).
package vfs

import (
	"errors"
	"sync"
)

var ErrBusy = errors.New("busy")

type Dentry struct {
	mu   sync.Mutex
	Dead bool // +checklocks:mu
}

type VFS struct {
	mountMu     sync.Mutex
	mountpoints map[*Dentry]int // +checklocks:mountMu
}

// PrepareDeleteDentry locks d.mu if it succeeds.
//
// +checklocksacquire:d.mu
func (vfs *VFS) PrepareDeleteDentry(d *Dentry) error {
	vfs.mountMu.Lock()
	defer vfs.mountMu.Unlock()
	if vfs.mountpoints[d] != 0 {
		return ErrBusy // +checklocksforce: inconsistent return.
	}
	d.mu.Lock()
	return nil
}

// +checklocksrelease:d.mu
func (vfs *VFS) AbortDeleteDentry(d *Dentry) {
	d.mu.Unlock()
}

// +checklocksrelease:d.mu
func (vfs *VFS) CommitDeleteDentry(d *Dentry) {
	d.Dead = true
	d.mu.Unlock()
}

type RenameHandle struct{ flags uint8 }

// PrepareRenameDentry locks from.mu and, when to is not nil, to.mu, if it
// succeeds; the error returns carry no +checklocksforce.
//
// +checklocksacquire:from.mu
// +checklocksacquire:to.mu
func (vfs *VFS) PrepareRenameDentry(from, to *Dentry) (RenameHandle, error) {
	vfs.mountMu.Lock()
	defer vfs.mountMu.Unlock()
	if vfs.mountpoints[from] != 0 {
		return RenameHandle{}, ErrBusy
	}
	if to != nil {
		if vfs.mountpoints[to] != 0 {
			return RenameHandle{}, ErrBusy
		}
		to.mu.Lock()
	}
	from.mu.Lock()
	return RenameHandle{}, nil // +checklocksforce: to may not be acquired.
}

// +checklocksrelease:from.mu
// +checklocksrelease:to.mu
func (vfs *VFS) AbortRenameDentry(h *RenameHandle, from, to *Dentry) {
	from.mu.Unlock()
	if to != nil {
		to.mu.Unlock() // +checklocksforce: to may not be acquired.
	}
}

// PrepareOther has the same contract and breaks it: it reports success
// without the lock.
//
// +checklocksacquire:d.mu
func (vfs *VFS) PrepareOther(d *Dentry, ok bool) error {
	if !ok {
		return ErrBusy
	}
	return nil // want `PrepareOther returns a nil error with d.mu not held, breaking its //guard:acquires d.mu contract`
}

// PrepareLeaky reports failure with the lock held on one of its error
// paths: its callers take an error to mean nothing was locked, so nobody
// unlocks it.
//
// +checklocksacquire:d.mu
func (vfs *VFS) PrepareLeaky(d *Dentry, ok bool) error {
	if !ok {
		return ErrBusy
	}
	d.mu.Lock()
	if d.Dead {
		return ErrBusy // want `PrepareLeaky returns an error with d.mu still locked, but it acquires d.mu only when it succeeds`
	}
	return nil
}

// LockDentry holds d.mu at every return: it acquires unconditionally,
// error or not, and its callers unlock it on both paths.
//
// +checklocksacquire:d.mu
func LockDentry(d *Dentry) error {
	d.mu.Lock()
	if d.Dead {
		return ErrBusy
	}
	return nil
}

// +checklocksrelease:d.mu
func UnlockDentry(d *Dentry) {
	d.mu.Unlock()
}
