// Package condacquire covers callers of functions that acquire a lock only
// when they succeed: declared (vfs.PrepareDeleteDentry, in another
// package) or inferred from an unannotated body. The error branch returns
// with nothing held; the success path holds the lock.
package condacquire

import (
	"errors"
	"sync"

	"condacquire/vfs"
)

var errNotEmpty = errors.New("not empty")

type dentry struct {
	vfsd     vfs.Dentry
	children int
}

// The gofer shape: an if statement with the call in its init.
func unlink(v *vfs.VFS, child *dentry) error {
	if err := v.PrepareDeleteDentry(&child.vfsd); err != nil {
		return err
	}
	if child.children != 0 {
		v.AbortDeleteDentry(&child.vfsd)
		return errNotEmpty
	}
	v.CommitDeleteDentry(&child.vfsd)
	return nil
}

// The rename shape: a handle and an error, locks rooted at arguments.
func rename(v *vfs.VFS, renamed, replaced *dentry) error {
	var replacedVFSD *vfs.Dentry
	if replaced != nil {
		replacedVFSD = &replaced.vfsd
	}
	handle, err := v.PrepareRenameDentry(&renamed.vfsd, replacedVFSD)
	if err != nil {
		return err
	}
	v.AbortRenameDentry(&handle, &renamed.vfsd, replacedVFSD)
	return nil
}

// The condition the other way round.
func unlinkIfFree(v *vfs.VFS, child *dentry) {
	err := v.PrepareDeleteDentry(&child.vfsd)
	if err == nil {
		child.vfsd.Dead = true
		v.CommitDeleteDentry(&child.vfsd)
	}
}

// Still reported: forgetting the release on a success path.
func unlinkLeak(v *vfs.VFS, child *dentry) error {
	if err := v.PrepareDeleteDentry(&child.vfsd); err != nil {
		return err
	}
	if child.children != 0 {
		return errNotEmpty // want `return with child.vfsd.mu still locked`
	}
	v.CommitDeleteDentry(&child.vfsd)
	return nil
}

// And touching what the lock guards before the error says it is held.
func unlinkEarly(v *vfs.VFS, child *dentry) error {
	err := v.PrepareDeleteDentry(&child.vfsd)
	child.vfsd.Dead = true // want `child.vfsd.Dead written while child.vfsd.mu is held on some paths only`
	if err != nil {
		return err
	}
	v.CommitDeleteDentry(&child.vfsd)
	return nil
}

// An unconditional acquirer returning an error: the error path holds the
// lock too, and forgetting it there is a leak.
func lockAndCheck(d *vfs.Dentry) error {
	if err := vfs.LockDentry(d); err != nil {
		return err // want `return with d.mu still locked`
	}
	d.Dead = true
	vfs.UnlockDentry(d)
	return nil
}

type table struct {
	mu    sync.Mutex
	busy  bool
	count int // +checklocks:mu
}

// lockIfIdle has no directive: the body takes t.mu only on the path
// that returns a nil error. The effect is inferred as conditional.
func (t *table) lockIfIdle() error {
	if t.busy {
		return errNotEmpty
	}
	t.mu.Lock()
	return nil
}

func (t *table) bump() error {
	if err := t.lockIfIdle(); err != nil {
		return err
	}
	t.count++
	t.mu.Unlock()
	return nil
}

func (t *table) bumpEarly() error {
	err := t.lockIfIdle()
	t.count++ // want `t.count written while t.mu is held on some paths only`
	if err != nil {
		return err
	}
	t.mu.Unlock()
	return nil
}

func check(d *dentry) error {
	if d.children != 0 {
		return errNotEmpty
	}
	return nil
}

// err is assigned again later: what decides the lock is the call err
// holds at the condition, not the variable's only definition.
func renameReusingErr(v *vfs.VFS, renamed *dentry) error {
	var err error
	if err = check(renamed); err != nil {
		return err
	}
	var handle vfs.RenameHandle
	handle, err = v.PrepareRenameDentry(&renamed.vfsd, nil)
	if err != nil {
		return err
	}
	v.AbortRenameDentry(&handle, &renamed.vfsd, nil)
	err = check(renamed)
	return err
}

// Once err holds another call's result, a condition on it says nothing
// about the lock.
func conditionOnOtherErr(v *vfs.VFS, child *dentry) error {
	err := v.PrepareDeleteDentry(&child.vfsd)
	err = check(child)
	if err != nil {
		return err
	}
	child.vfsd.Dead = true // want `child.vfsd.Dead written while child.vfsd.mu is held on some paths only`
	v.CommitDeleteDentry(&child.vfsd)
	return nil
}

// A TryLock result kept in a variable that is assigned again.
func (t *table) tryTwice() {
	ok := t.mu.TryLock()
	if !ok {
		return
	}
	t.count++
	t.mu.Unlock()
	ok = t.mu.TryLock()
	if ok {
		t.count++
		t.mu.Unlock()
	}
}
