// Command shardlock: a cache split into shards, each guarded by the lock
// at its own index in an array of locks (freecache's locks[segID] and
// segments[segID]). Set and Get take the shard's lock around the shard:
// an element of an array (or a slice) of locks is a lock, and what it
// guards is not reported. Len reads a shard's count with no lock at
// all, against Set's write: that is.
package main

import "sync"

const shards = 4

type shard struct {
	entries map[string][]byte
	count   int
}

type Cache struct {
	locks  [shards]sync.Mutex
	shards [shards]shard
}

func New() *Cache {
	c := &Cache{}
	for i := range c.shards {
		c.shards[i].entries = map[string][]byte{}
	}
	return c
}

func index(key string) int {
	h := 0
	for _, b := range []byte(key) {
		h = h*31 + int(b)
	}
	return h & (shards - 1)
}

func (c *Cache) Set(key string, v []byte) {
	i := index(key)
	c.locks[i].Lock()
	c.shards[i].set(key, v)
	c.locks[i].Unlock()
}

func (c *Cache) Get(key string) []byte {
	i := index(key)
	c.locks[i].Lock()
	defer c.locks[i].Unlock()
	return c.shards[i].entries[key]
}

func (s *shard) set(key string, v []byte) {
	if _, ok := s.entries[key]; !ok {
		s.count++
	}
	s.entries[key] = v
}

// Len reads every shard's count with no lock.
func (c *Cache) Len() int {
	n := 0
	for i := range c.shards {
		n += c.shards[i].count // want `shard.count read in Cache.Len .* races with its write in shard.set`
	}
	return n
}

// Table keeps its locks in a slice, read-write ones, a lock per row.
type Table struct {
	locks []sync.RWMutex
	rows  []map[string]int
}

func NewTable(n int) *Table {
	t := &Table{locks: make([]sync.RWMutex, n), rows: make([]map[string]int, n)}
	for i := range t.rows {
		t.rows[i] = map[string]int{}
	}
	return t
}

func (t *Table) Put(row int, k string, v int) {
	t.locks[row].Lock()
	t.rows[row][k] = v
	t.locks[row].Unlock()
}

func (t *Table) Lookup(row int, k string) int {
	t.locks[row].RLock()
	defer t.locks[row].RUnlock()
	return t.rows[row][k]
}

func main() {
	c, t := New(), NewTable(shards)
	for i := 0; i < 4; i++ {
		go func(k string) {
			for {
				c.Set(k, []byte(k))
				_ = c.Get(k)
				t.Put(i, k, i)
				_ = t.Lookup(i, k)
			}
		}(string(rune('a' + i)))
	}
	for {
		println(c.Len())
	}
}
