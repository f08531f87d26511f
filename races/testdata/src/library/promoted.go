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
	if found && c.onEvicted != nil { // want `cache.onEvicted read in cache.Delete \(exported method: cache.Delete\) races with its write in cache.OnEvicted`
		c.onEvicted(k)
	}
}

func (c *cache) OnEvicted(f func(string)) {
	c.mu.Lock()
	c.onEvicted = f // reported at Delete's read, which lacks the lock
	c.mu.Unlock()
}
