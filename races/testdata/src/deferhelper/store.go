// Package deferhelper releases a lock with a deferred call of a helper
// (defer s.unlock(), etcd's defer tx.Unlock()). The helper's release
// counts where the deferred call runs: create leaves nothing held, so
// Bump's write after it holds no lock and races with Get. A deferred
// helper that releases only on a flag releases nothing where the lock is
// not held at the return (removeLocked called holding mu, load after its
// own explicit unlock): Drop and Refresh still hold mu after the call.
package deferhelper

import "sync"

type Store struct {
	mu   sync.Mutex
	n, v int
}

func (s *Store) lock()   { s.mu.Lock() }
func (s *Store) unlock() { s.mu.Unlock() }

func (s *Store) create() {
	s.lock()
	defer s.unlock()
	s.n++ // no race: mu is held
}

// Bump writes v after create has released mu.
func (s *Store) Bump() {
	s.create()
	s.v = 1 // want `Store.v written in Store.Bump \(exported method: Store.Bump\) races with its read in Store.Get`
}

// Get reads both under mu.
func (s *Store) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v + s.n
}

// removeLocked takes mu only when asked to; its callers that do not ask
// hold it already.
func (s *Store) removeLocked(needLock bool) {
	lock := func() {
		if needLock {
			s.mu.Lock()
		}
	}
	unlock := func() {
		if needLock {
			s.mu.Unlock()
		}
	}
	lock()
	defer unlock()
	s.n--
}

// Drop holds mu across removeLocked(false) and writes v after it.
func (s *Store) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(false)
	s.v = 0 // no race: mu is still held
}

// load releases mu itself; the deferred release is for an early return.
func (s *Store) load() {
	s.mu.Lock()
	unlocked := false
	defer func() {
		if !unlocked {
			s.mu.Unlock()
		}
	}()
	s.n = 1
	s.mu.Unlock()
	unlocked = true
}

// Refresh locks mu again after load.
func (s *Store) Refresh() {
	s.load()
	s.mu.Lock()
	s.v = 2 // no race: mu is held
	s.mu.Unlock()
}
