// Package shardsetup fills the shards of a cache it has just made
// (s := &c.shards[i]; s.m = make(...)) before it publishes the cache
// under the pool's lock: an element of a slice only the new cache holds
// is no other goroutine's yet. A write to a shard once the cache is
// published, with no lock, races with the locked reads.
package shardsetup

import "sync"

type shard struct {
	mu sync.Mutex
	m  map[string]int
}

type Cache struct{ shards []shard }

func newCache(n int) *Cache {
	c := &Cache{shards: make([]shard, n)}
	for i := range c.shards {
		s := &c.shards[i]
		s.m = make(map[string]int) // no race: the cache is not published yet
	}
	return c
}

type Pool struct {
	mu     sync.Mutex
	caches map[string]*Cache
}

func (p *Pool) cache(name string) *Cache {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.caches[name]
	if c == nil {
		c = newCache(4)
		p.caches[name] = c
	}
	return c
}

func (p *Pool) Get(name, k string) int {
	s := &p.cache(name).shards[0]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k]
}

// Put writes a shard's map with no lock.
func (p *Pool) Put(name, k string, v int) {
	s := &p.cache(name).shards[0]
	s.m[k] = v // want `shard.m\[\] written in Pool.Put \(exported method: Pool.Put\) races with its read in Pool.Get`
}
