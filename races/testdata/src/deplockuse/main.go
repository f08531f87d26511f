// Package deplockuse: a dependency's lock types (a sync.Locker, and a
// reader-biased RWMutex whose RLock hands out a token) lock as
// sync.Mutex and sync.RWMutex do, though the analysis has no bodies for
// them: what every access holds one of is not reported; what one side
// reads or writes without it is.
package main

import "deplock"

type Cache struct {
	mu     deplock.Mutex
	items  map[string]int
	misses int
	rb     *deplock.RBMutex
	hits   int
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.items[k] = v // under c.mu on every side: not reported
	c.mu.Unlock()
}

func (c *Cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[k]
}

func (c *Cache) Hit() {
	c.rb.Lock()
	c.hits++ // under c.rb: not reported
	c.rb.Unlock()
}

func (c *Cache) Hits() int {
	t := c.rb.RLock()
	defer c.rb.RUnlock(t)
	return c.hits
}

func (c *Cache) Miss() {
	c.misses++ // want `Cache.misses written in Cache.Miss .* races with its (read|write) in Cache.(Misses|Miss)`
}

func (c *Cache) Misses() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.misses
}

func main() {
	c := &Cache{items: map[string]int{}, rb: &deplock.RBMutex{}}
	for i := 0; i < 2; i++ {
		go func() {
			for {
				c.Put("a", 1)
				c.Get("a")
				c.Hit()
				c.Hits()
				c.Miss()
				c.Misses()
			}
		}()
	}
	select {}
}
