// Package helpers has no directives at all: its lock helpers are found by
// the syntax scan and their effects exported as facts.
package helpers

import "sync"

func LockIt(mu *sync.Mutex)      { mu.Lock() }
func UnlockIt(mu *sync.Mutex)    { mu.Unlock() }
func RLockIt(mu *sync.RWMutex)   { mu.RLock() }
func RUnlockIt(mu *sync.RWMutex) { mu.RUnlock() }

// LockTwice calls a helper of its own.
func LockTwice(a, b *sync.Mutex) {
	LockIt(a)
	LockIt(b)
}
