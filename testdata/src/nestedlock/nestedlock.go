// Package nestedlock covers lock operations recognised by their effect: a
// method of a lock type (one with Lock and Unlock) whose body locks or
// unlocks what is inside its receiver is a lock operation on the receiver,
// whatever its name (lockdep's NestedLock(class) and NestedUnlock(class)).
package nestedlock

import (
	"sync"
	"unsafe"

	"nestedlock/lockdep"
)

const lockB = lockdep.Index(1)

type bucketMutex struct {
	mu sync.Mutex
}

// +checklocksignore
func (m *bucketMutex) Lock() { m.mu.Lock() }

// +checklocksignore
func (m *bucketMutex) NestedLock(i lockdep.Index) { m.mu.Lock() }

// +checklocksignore
func (m *bucketMutex) Unlock() { m.mu.Unlock() }

// +checklocksignore
func (m *bucketMutex) NestedUnlock(i lockdep.Index) { m.mu.Unlock() }

type bucket struct {
	mu      bucketMutex
	waiters int // +checklocks:mu
}

// The futex shape: named results carry the locks to the caller.
//
// +checklocksacquire:lockedFirst.mu
// +checklocksacquire:lockedSecond.mu
func lockBuckets(b1, b2 *bucket, i1, i2 int) (lockedFirst, lockedSecond *bucket) {
	switch {
	case i1 < i2:
		b1.mu.Lock()
		b2.mu.NestedLock(lockB)
		return b1, b2
	case i2 < i1:
		b2.mu.Lock()
		b1.mu.NestedLock(lockB)
		return b2, b1
	default:
		b1.mu.Lock()
		return b1, nil // +checklocksforce
	}
}

// +checklocksrelease:lockedFirst.mu
// +checklocksrelease:lockedSecond.mu
func unlockBuckets(lockedFirst, lockedSecond *bucket) {
	if lockedSecond != nil {
		lockedSecond.mu.NestedUnlock(lockB)
	}
	lockedFirst.mu.Unlock()
}

type Pipe struct {
	mu    lockdep.Mutex
	queue int // +checklocks:mu
}

// The pipe shape, with the lock type from another package.
//
// +checklocksacquire:x.mu
// +checklocksacquire:y.mu
func lockTwoPipes(x, y *Pipe) (*Pipe, *Pipe) {
	if uintptr(unsafe.Pointer(x)) < uintptr(unsafe.Pointer(y)) {
		x.mu.Lock()
		y.mu.NestedLock(lockB)
		return x, y
	}
	y.mu.Lock()
	x.mu.NestedLock(lockB)
	return y, x
}

func splice(x, y *Pipe) {
	lockTwoPipes(x, y)
	x.queue++
	y.queue--
	y.mu.NestedUnlock(lockB)
	x.mu.Unlock()
}

func nested(x, y *Pipe) {
	x.mu.Lock()
	y.mu.NestedLock(lockB)
	y.queue++
	y.mu.NestedUnlock(lockB)
	y.queue-- // want `y.queue written while y.mu is not held`
	x.mu.Unlock()
}

// Still reported: NestedLock of a lock already held.
func twice(x *Pipe) {
	x.mu.Lock()
	x.mu.NestedLock(lockB) // want `x.mu.NestedLock\(\) while x.mu is already locked`
	x.mu.Unlock()
}

// Still reported: a missing NestedLock.
//
// +checklocksacquire:x.mu
// +checklocksacquire:y.mu
func lockOne(x, y *Pipe) {
	x.mu.Lock()
} // want `lockOne returns with y.mu not known to be held|lockOne returns with y.mu`

// A method of the lock type with no net effect is not a lock operation.
func held(x *Pipe) {
	x.mu.Lock()
	if x.mu.Held() {
		x.queue++
	}
	x.mu.Unlock()
}

// A lock type whose own Lock and Unlock lock what is inside it: a deferred
// Unlock releases the inside too.
type wrapped struct{ mu sync.Mutex }

// +checklocksignore
func (w *wrapped) Lock() { w.mu.Lock() }

// +checklocksignore
func (w *wrapped) Unlock() { w.mu.Unlock() }

type S struct {
	w wrapped
	n int // +checklocks:w
}

// +checklocksexclude:s.w.mu
func (s *S) outside() {}

func (s *S) deferredInner() {
	defer s.outside()
	s.w.Lock()
	defer s.w.Unlock()
	s.n++
}
