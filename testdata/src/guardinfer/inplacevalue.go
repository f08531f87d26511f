package guardinfer

import "sync"

// evictShard: removeOldest needs the shard's lock, and every caller holds
// it, including the two that hand it as a method value to onEvict, which
// only calls it in place (bigcache's cacheShard.removeOldestEntry).
type evictShard struct {
	lock    sync.RWMutex
	entries []uint64
	index   map[uint64]int
	limit   int
}

func (s *evictShard) Set(k uint64) {
	s.lock.Lock()
	defer s.lock.Unlock()
	if len(s.entries) >= s.limit {
		s.onEvict(s.entries[0], s.removeOldest)
	}
	if len(s.entries) >= 2*s.limit {
		_ = s.removeOldest()
	}
	s.entries = append(s.entries, k)
	s.index[k] = len(s.entries)
}

func (s *evictShard) Keys() []uint64 {
	s.lock.RLock()
	defer s.lock.RUnlock()
	out := make([]uint64, 0, len(s.index))
	for k := range s.index {
		out = append(out, k)
	}
	return append(out, s.entries...)
}

func (s *evictShard) Reset() {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.entries = s.entries[:0]
	s.index = map[uint64]int{}
}

func (s *evictShard) Has(k uint64) bool {
	s.lock.RLock()
	defer s.lock.RUnlock()
	_, ok := s.index[k]
	return ok && len(s.entries) > 0
}

func (s *evictShard) Stats() (int, int, int, bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	first := 0
	if len(s.entries) > 0 {
		first = int(s.entries[0])
	}
	_, zero := s.index[0]
	return len(s.entries), len(s.index), first + s.index[1] + s.index[2], zero || len(s.entries) > cap(s.entries)/2
}

func (s *evictShard) Get(k uint64) (int, bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	i, ok := s.index[k]
	return i, ok
}

func (s *evictShard) Len() int {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return len(s.entries) + len(s.index)
}

func (s *evictShard) CleanUp(now uint64) {
	s.lock.Lock()
	for len(s.entries) > 0 && s.onEvict(now, s.removeOldest) {
	}
	s.lock.Unlock()
}

func (s *evictShard) onEvict(oldest uint64, evict func() error) bool {
	if oldest == 0 {
		return false
	}
	return evict() == nil
}

func (s *evictShard) removeOldest() error {
	oldest := s.entries[0]
	s.entries = s.entries[1:]
	delete(s.index, oldest)
	return nil
}

// trimShard: Trim hands removeOldest to onEvict with no lock held, so
// not every caller holds the lock: the delete is reported.
type trimShard struct {
	lock    sync.RWMutex
	entries []uint64
	index   map[uint64]int
	limit   int
}

func (s *trimShard) Set(k uint64) {
	s.lock.Lock()
	defer s.lock.Unlock()
	if len(s.entries) >= s.limit {
		s.onEvict(s.entries[0], s.removeOldest)
	}
	if len(s.entries) >= 2*s.limit {
		_ = s.removeOldest()
	}
	s.entries = append(s.entries, k)
	s.index[k] = len(s.entries)
}

func (s *trimShard) Keys() []uint64 {
	s.lock.RLock()
	defer s.lock.RUnlock()
	out := make([]uint64, 0, len(s.index))
	for k := range s.index {
		out = append(out, k)
	}
	return append(out, s.entries...)
}

func (s *trimShard) Reset() {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.entries = s.entries[:0]
	s.index = map[uint64]int{}
}

func (s *trimShard) Has(k uint64) bool {
	s.lock.RLock()
	defer s.lock.RUnlock()
	_, ok := s.index[k]
	return ok && len(s.entries) > 0
}

func (s *trimShard) Stats() (int, int, int, bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	first := 0
	if len(s.entries) > 0 {
		first = int(s.entries[0])
	}
	_, zero := s.index[0]
	return len(s.entries), len(s.index), first + s.index[1] + s.index[2], zero || len(s.entries) > cap(s.entries)/2
}

func (s *trimShard) Get(k uint64) (int, bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	i, ok := s.index[k]
	return i, ok
}

func (s *trimShard) Len() int {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return len(s.entries) + len(s.index)
}

func (s *trimShard) Trim(now uint64) {
	s.onEvict(now, s.removeOldest)
}

func (s *trimShard) onEvict(oldest uint64, evict func() error) bool {
	if oldest == 0 {
		return false
	}
	return evict() == nil
}

func (s *trimShard) removeOldest() error {
	oldest := s.entries[0]
	s.entries = s.entries[1:]
	delete(s.index, oldest) // want `s.index is accessed with s.lock held at 11 of 12 sites`
	return nil
}
