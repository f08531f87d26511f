// Package lib declares lock helpers used from another package.
package lib

import "sync"

type E struct {
	Mu sync.Mutex
	N  int //guard:by Mu
}

// TryLock takes e.Mu only when it returns true.
//
//guard:acquires e.Mu
func (e *E) TryLock() bool { return e.Mu.TryLock() }

// LockAndCheck always takes e.Mu; its result says something else.
//
//guard:acquires e.Mu
func (e *E) LockAndCheck() bool {
	e.Mu.Lock()
	return e.N > 0
}
