package flaglock

import "sync"

// Store's helper takes the lock unless its caller says it holds it
// (throttled's memstore get(key, locked bool)): `if !locked { RLock }`,
// which SSA spells as a branch on locked with its ways swapped. The read
// is under the lock on both ways.
type Store struct {
	sync.RWMutex
	m    map[string]*int64
	hits int
}

func (s *Store) get(key string, locked bool) (*int64, bool) {
	if !locked {
		s.RLock()
		defer s.RUnlock()
	}
	v, ok := s.m[key] // under the lock on both ways: not reported
	return v, ok
}

func (s *Store) Get(key string) (*int64, bool) { return s.get(key, false) }

func (s *Store) SetIfAbsent(key string, v int64) bool {
	if _, ok := s.get(key, false); ok {
		return false
	}
	s.Lock()
	defer s.Unlock()
	if _, ok := s.get(key, true); ok {
		return false
	}
	s.m[key] = &v
	return true
}

// Count's update comes after get has released the lock it took.
func (s *Store) Count(key string) {
	s.get(key, false)
	s.hits++ // want `Store.hits written in Store.Count .* races with its (read|write) in Store.(Hits|Count).*`
}

func (s *Store) Hits() int {
	s.RLock()
	defer s.RUnlock()
	return s.hits
}
