// Package lockdep is a lock-validator wrapper in the style of gVisor's
// generated mutexes: Lock and Unlock, plus NestedLock and NestedUnlock
// that take a lock class index, all on sync.Mutex inside.
package lockdep

import "sync"

type Index int

func addLock(int) {}
func delLock(int) {}

type Mutex struct {
	mu sync.Mutex
}

// +checklocksignore
func (m *Mutex) Lock() {
	addLock(-1)
	m.mu.Lock()
}

// +checklocksignore
func (m *Mutex) NestedLock(i Index) {
	addLock(int(i))
	m.mu.Lock()
}

// +checklocksignore
func (m *Mutex) Unlock() {
	delLock(-1)
	m.mu.Unlock()
}

// +checklocksignore
func (m *Mutex) NestedUnlock(i Index) {
	delLock(int(i))
	m.mu.Unlock()
}

// Held is a method of the lock type without a net effect: not a lock
// operation.
// +checklocksignore
func (m *Mutex) Held() bool {
	if !m.mu.TryLock() {
		return true
	}
	m.mu.Unlock()
	return false
}
