package library

import "sync"

// go-cache's shape: the exported Cache embeds an unexported cache whose
// methods lock its mutex; code outside calls them through Cache, so they
// are entry points too. Delete calls the eviction hook after releasing
// the lock, while OnEvicted replaces it under the lock.

type Cache struct{ *cache }

type cache struct {
	mu        sync.Mutex
	items     map[string]int
	onEvicted func(string)
}

func NewCache() *Cache { return &Cache{&cache{items: map[string]int{}}} }

func (c *cache) Delete(k string) {
	c.mu.Lock()
	_, found := c.items[k]
	delete(c.items, k)
	c.mu.Unlock()
	if found && c.onEvicted != nil {
		c.onEvicted(k)
	}
}

func (c *cache) OnEvicted(f func(string)) {
	c.mu.Lock()
	c.onEvicted = f // want `cache.onEvicted written in cache.OnEvicted \(exported method: cache.OnEvicted\) races with its read in cache.Delete`
	c.mu.Unlock()
}
