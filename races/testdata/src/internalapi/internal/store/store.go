// Package store is internal to internalapi: only the public package
// calls it. Its exported methods are not entry points of the library
// (code outside cannot call them); they run as the public package's
// methods call them. SetHits, which only this module's tests would call,
// writes with no lock: no public method calls it, and it is not
// reported.
package store

import "sync"

type Store struct {
	mu   sync.Mutex
	data map[string]int
	hits int
}

func New() *Store { return &Store{data: map[string]int{}} }

func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.data[k] = v
	s.mu.Unlock()
}

func (s *Store) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits++
	return s.data[k]
}

// Hits reads the count with no lock.
func (s *Store) Hits() int {
	return s.hits // want `Store.hits read in Store.Hits .* races with its write in Store.Get`
}

// SetHits resets the count, for tests.
func (s *Store) SetHits(n int) {
	s.hits = n
}
