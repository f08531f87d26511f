// Package trylockwrap covers functions that acquire a lock only when they
// return true: a //guard:acquires (or +checklocksacquire) function whose
// one result is a bool, like TryLock itself.
package trylockwrap

import "sync"

type E struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// TryLock wraps e.mu.TryLock for the checker (gVisor's tcp.Endpoint).
//
//guard:acquires e.mu
func (e *E) TryLock() bool {
	return e.mu.TryLock()
}

// +checklocksacquire:e.mu
func (e *E) tryLockGVisor() bool {
	return e.mu.TryLock() // +checklocksforce: TryLock.
}

func work() {}

// The dispatcher's shape: give up when the lock is busy.
func handle(e *E) {
	if !e.TryLock() {
		return
	}
	if e.n == 0 {
		e.mu.Unlock()
		return
	}
	e.n++
	e.mu.Unlock()
}

func handleGVisor(e *E) {
	if !e.tryLockGVisor() {
		return
	}
	e.n++
	e.mu.Unlock()
}

// LockUser's shape: spin on TryLock, fall back to Lock.
func (e *E) lockUser(busy bool) {
	for i := 0; i < 5; i++ {
		if !e.TryLock() {
			if busy {
				e.mu.Lock()
				return
			}
			continue
		}
		return
	}
	e.mu.Lock()
}

func positive(e *E) {
	if e.TryLock() {
		e.n++
		e.mu.Unlock()
	}
}

func assigned(e *E) {
	ok := e.TryLock()
	if ok {
		e.n++
		e.mu.Unlock()
	}
}

// Still reported: the failure branch does not hold the lock.
func failureBranch(e *E) {
	if !e.TryLock() {
		e.n++ // want `e.n written while e.mu is not known to be held`
		return
	}
	e.mu.Unlock()
}

// Still reported: the result is ignored, so the lock is held on some
// paths only.
func ignored(e *E) {
	e.TryLock()
	e.n++ // want `e.n written while e.mu is held on some paths only`
}

// Still reported: a missing unlock on the success path.
func missingUnlock(e *E, fail bool) {
	if !e.TryLock() {
		return
	}
	if fail {
		return // want `return with e.mu still locked, but later paths unlock it`
	}
	e.n++
	e.mu.Unlock()
}

// An acquire helper with no result keeps its meaning: held after the call.
//
//guard:acquires e.mu
func (e *E) lock() { e.mu.Lock() }

// An acquire helper whose bool result says something else is not a
// TryLock: its contract holds on both branches.
//
//guard:acquires e.mu
func (e *E) lockAndCheck() bool {
	e.mu.Lock()
	return e.n > 0
}

func plain(e *E) {
	e.lock()
	e.n++
	e.mu.Unlock()
	if e.lockAndCheck() {
		e.n++
	}
	e.n--
	e.mu.Unlock()
}
