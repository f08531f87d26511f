// Package nestedlock: a lock kept in a field of a struct with no name of
// its own, next to what it guards (ttlcache's items struct { mu
// sync.RWMutex; values map[K]V }), is named by the outer field:
// Store.items.mu, and so are the fields beside it (Store.items.values).
// What is read and written under it is not reported; Peek's and Len's
// unlocked reads are. The generic Cache's getWithOpts takes that lock
// only when its flag says so; its callers that hold the lock pass false,
// through the instance of the generic method that runs the generic body,
// and still hold it after the call.
package nestedlock

import "sync"

type Store struct {
	items struct {
		mu     sync.RWMutex
		values map[string]int
	}
	total int
}

func (s *Store) Put(k string, v int) {
	s.items.mu.Lock()
	defer s.items.mu.Unlock()
	s.items.values[k] = v
	s.total += v
}

func (s *Store) Total() int {
	s.items.mu.RLock()
	defer s.items.mu.RUnlock()
	return s.total
}

// Len reads the map with no lock; the map is a field of the unnamed
// struct too, named Store.items.values.
func (s *Store) Len() int {
	return len(s.items.values) // want `Store.items.values\[\] read in Store.Len .* races with its write in Store.Put`
}

// Peek reads the total with no lock.
func (s *Store) Peek() int {
	return s.total // want `Store.total read in Store.Peek .* races with its write in Store.Put .*no lock is held at both \(the read holds none, the other Store.items.mu\)`
}

type Cache[K comparable, V any] struct {
	items struct {
		mu     sync.Mutex
		values map[K]V
	}
	cost int
}

func (c *Cache[K, V]) getWithOpts(key K, lockAndLoad bool) (V, bool) {
	if lockAndLoad {
		c.items.mu.Lock()
	}
	v, ok := c.items.values[key]
	if lockAndLoad {
		c.items.mu.Unlock()
	}
	return v, ok
}

func (c *Cache[K, V]) set(key K, value V) {
	c.items.values[key] = value
	c.cost++
}

func (c *Cache[K, V]) Get(key K) (V, bool) { return c.getWithOpts(key, true) }

func (c *Cache[K, V]) GetOrSet(key K, value V) V {
	c.items.mu.Lock()
	defer c.items.mu.Unlock()
	if v, ok := c.getWithOpts(key, false); ok {
		return v
	}
	c.set(key, value) // still under c.items.mu: not reported
	return value
}

func (c *Cache[K, V]) Cost() int {
	c.items.mu.Lock()
	defer c.items.mu.Unlock()
	return c.cost
}
