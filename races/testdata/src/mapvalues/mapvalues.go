// Command mapvalues: what a range over a map, or a lookup in one, gives
// is what was stored in the map. A client keeps its pending requests in a
// map and a default request in a package variable; the values a range
// over the map gives are the requests Enqueue made, never the default.
// A write to them under the client's lock does not race with the
// unlocked read of the default's field. Once the default is stored in
// the map too (the second client), a write to what the map holds is a
// write to it.
package main

import (
	"fmt"
	"sync"
)

type request struct {
	version int
	retries int
}

var fallback = &request{}

type client struct {
	mu      sync.Mutex
	pending map[int]*request
	shared  bool
}

func (c *client) enqueue(id int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &request{}
	if c.shared {
		r = shared
	}
	c.pending[id] = r
}

// upgrade writes what the map holds, under the lock.
func (c *client) upgrade(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.pending {
		r.version = v
	}
	if r, ok := c.pending[0]; ok {
		r.retries++
	}
}

var shared = &request{}

func main() {
	c := &client{pending: map[int]*request{}}
	s := &client{pending: map[int]*request{}, shared: true}
	for i := range 4 {
		go c.enqueue(i)
		go c.upgrade(i)
		go s.enqueue(i)
		go s.upgrade(i)
	}
	// The default no map holds: no race.
	fmt.Println(fallback.version + fallback.retries)
	// The default the second client's map holds: a race.
	fmt.Println(shared.version) // want `request.version read in main .* races with its write in client.upgrade`
}
