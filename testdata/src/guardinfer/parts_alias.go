package guardinfer

import "sync"

type cacheShard struct {
	mu      sync.Mutex // guards entries and hits
	entries map[string]int
	hits    int
}

// NewShardedCache fills each shard through a local pointer to it, s :=
// &c.shards[i], before c is returned: a part of an object not shared yet
// is private too, and the bare writes are silent (go-redis'
// NewLocalCache). ResetHits writes through the same kind of pointer on a
// cache already in use, and is reported.
type ShardedCache struct {
	shards []cacheShard
}

func NewShardedCache(n int) *ShardedCache {
	c := &ShardedCache{shards: make([]cacheShard, n)}
	for i := range c.shards {
		s := &c.shards[i]
		s.entries = map[string]int{}
		s.hits = 0
	}
	return c
}

func (c *ShardedCache) Get(k string) int {
	s := &c.shards[len(k)%len(c.shards)]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits++
	return s.entries[k]
}

func (c *ShardedCache) ResetHits() {
	for i := range c.shards {
		s := &c.shards[i]
		s.hits = 0 // want `s.hits is documented as guarded by mu \("guards entries and hits" at parts_alias.go:\d+\), but s.mu is not held here`
	}
}
