// Package use calls lib's helpers: the TryLock-like one holds the lock
// only on its true branch, the other on both.
package use

import "trylockwrap/lib"

func try(e *lib.E) {
	if !e.TryLock() {
		e.N++ // want `e.N written while e.Mu is not known to be held`
		return
	}
	e.N++
	e.Mu.Unlock()
}

func check(e *lib.E) {
	if e.LockAndCheck() {
		e.N++
	}
	e.N--
	e.Mu.Unlock()
}
