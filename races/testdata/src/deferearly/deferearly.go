// Package deferearly: a helper that returns early before it takes a lock
// and defers its release (if c == nil { return 0 }; c.mu.RLock(); defer
// c.mu.RUnlock()) releases nothing on the early path: its net effect is
// none, and a caller that takes the lock after calling it holds it.
package deferearly

import "sync"

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

func (c *Cache) Put(k string, v int) {
	if c.Len() > 100 {
		return
	}
	c.mu.Lock()
	c.m[k] = v // holds the lock Len released only on the path that took it: reported at Drop's
	c.mu.Unlock()
}

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

// Drop forgets to lock: its delete races with Put's update (which holds
// the lock Len released only on the path that took it) and with Len's
// and Get's reads, one finding at the delete.
func (c *Cache) Drop(k string) {
	delete(c.m, k) // want `Cache.m\[\] written in Cache.Drop \(exported method: Cache.Drop\) races with its write in Cache.Put \(exported method: Cache.Put\) \(and 3 more accesses\); no lock is held at both \(the write holds none, the other Cache.mu\)`
}
