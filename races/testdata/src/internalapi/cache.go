// Package internalapi: a cache built on an internal store. The library's
// entry points are its own exported methods; the internal store's run as
// these call them. Stats reads the store's hit count with no lock while
// Lookup counts under the store's lock: reported, inside the store.
package internalapi

import (
	"sync"

	"internalapi/internal/store"
)

type Cache struct {
	mu    sync.Mutex
	st    *store.Store
	names []string
}

func New() *Cache { return &Cache{st: store.New()} }

func (c *Cache) Add(k string, v int) {
	c.mu.Lock()
	c.names = append(c.names, k)
	c.mu.Unlock()
	c.st.Put(k, v)
}

func (c *Cache) Lookup(k string) int { return c.st.Get(k) }

func (c *Cache) Stats() int { return c.st.Hits() }
