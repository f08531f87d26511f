// Package guardinferexplain is run with -config.infer.explain: each
// finding ends with the evidence behind it.
package guardinferexplain

import "sync"

type Cache struct {
	mu    sync.Mutex
	state int // guarded by mu
}

func (c *Cache) Set(n int) {
	c.mu.Lock()
	c.state = n
	c.mu.Unlock()
}

func (c *Cache) Bump() {
	c.mu.Lock()
	c.state++
	c.mu.Unlock()
}

func (c *Cache) Stale() int {
	return c.state // want `c.state is documented as guarded by mu .*; evidence: 2 writes with the lock held \(first at explain.go:14\); the lock held in 2 functions \(Set, Bump\); this access is in exported Stale, which callers outside the package can call from any goroutine$`
}
