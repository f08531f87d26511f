package guardinfer

import "sync"

// A helper called from an init helper on its own receiver runs before the
// object is shared, as the init helper does: slab.init fills the free list
// with freePush, and set calls freePush under the lock (pebble's
// sharedcache shard). Every call of freePush is then either under s.mu or
// on an object not in use yet, and its bare accesses are not misses.
// bump is the twin: the exported Bump calls it with no lock, and it is
// reported.
type slab struct {
	mu struct {
		sync.Mutex
		free  []int
		head  int
		gen   int
		where map[int]int
	}
}

type SlabCache struct {
	slabs []slab
}

func NewSlabCache(n int) *SlabCache {
	c := &SlabCache{slabs: make([]slab, n)}
	for i := range c.slabs {
		c.slabs[i].init(16)
	}
	return c
}

func (s *slab) init(n int) {
	s.mu.free = make([]int, n)
	s.mu.where = map[int]int{}
	for i := 0; i < n; i++ {
		s.freePush(i)
	}
}

func (s *slab) freePush(i int) {
	s.mu.free[i] = s.mu.head
	s.mu.head = i
}

func (s *slab) bump() {
	s.mu.gen++ // want `s.mu.gen is accessed with s.mu.Mutex held at \d+ of \d+ sites`
}

func (s *slab) set(k, i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.mu.where[k]; ok {
		s.freePush(old)
	}
	s.mu.where[k] = i
}

func (s *slab) top() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) depth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) last() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) first() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) second() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) third() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) fourth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) fifth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) sixth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) seventh() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) eighth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) ninth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) tenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) eleventh() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) twelfth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) thirteenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) fourteenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) fifteenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) sixteenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) seventeenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (s *slab) eighteenth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.gen++
	s.mu.free = s.mu.free[:len(s.mu.free)]
	s.mu.head = s.mu.free[0]
	return s.mu.head
}

func (c *SlabCache) Set(k, i int) { c.slabs[k%len(c.slabs)].set(k, i) }

func (c *SlabCache) Bump() { c.slabs[0].bump() }

func (c *SlabCache) Stats() int {
	s := &c.slabs[0]
	return s.top() + s.mark() + s.depth() + s.last() + s.first() + s.second() + s.third() + s.fourth() + s.fifth() + s.sixth() + s.seventh() + s.eighth() + s.ninth() + s.tenth() + s.eleventh() + s.twelfth() + s.thirteenth() + s.fourteenth() + s.fifteenth() + s.sixteenth() + s.seventeenth() + s.eighteenth()
}
