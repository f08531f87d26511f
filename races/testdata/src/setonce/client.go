// Package setonce builds a client around a clone of its options and then
// sets a field of the clone through the client (c.opt.proc, go-redis's
// NewClient): the load of c.opt gives what NewClient stored there, since
// only an object's maker ever sets a client's base or a base's options,
// so the write is on the clone nobody else holds yet (the deferred
// clean-up that reads c runs in NewClient's goroutine, after it). Once
// clients are published in the pool, a write through them with no lock
// races.
package setonce

import "sync"

type Options struct {
	proc func()
	addr string
}

func (o *Options) clone() *Options {
	c := *o
	return &c
}

type base struct {
	opt     *Options
	mu      sync.Mutex
	timeout int
}

// Timeout reads the base's timeout under the client's and the base's
// locks.
func (c *Client) Timeout() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base.mu.Lock()
	defer c.base.mu.Unlock()
	return c.base.timeout
}

// WithTimeout returns a copy of c with a base of its own: the copy of
// the struct brings c's base along, then the field is set to a fresh
// one, and the write is on that one (go-redis's Client.WithTimeout).
func (c *Client) WithTimeout(t int) *Client {
	clone := *c
	clone.base = &base{opt: c.opt}
	clone.base.timeout = t // no race: clone's base is WithTimeout's alone
	return &clone
}

// SetTimeout writes the shared base's timeout with no lock.
func (c *Client) SetTimeout(t int) {
	c.base.timeout = t // want `base.timeout written in Client.SetTimeout .* races with its read in Client.Timeout`
}

type Client struct {
	*base
	mu *sync.Mutex
}

func NewClient(opt *Options) *Client {
	opt = opt.clone()
	c := Client{base: &base{opt: opt}, mu: &sync.Mutex{}}
	built := false
	defer func() {
		if !built {
			c.close() // a panic below leaves nothing half made
		}
	}()
	c.opt.proc = nil // no race: the clone is NewClient's alone
	built = true
	return &c
}

func (c *Client) close() {
	if c.base != nil {
		println("closing", c.opt.addr)
	}
}

type Pool struct {
	mu      sync.Mutex
	clients []*Client
}

// Add makes a client and publishes it under the pool's lock.
func (p *Pool) Add(o *Options) {
	c := NewClient(o)
	p.mu.Lock()
	p.clients = append(p.clients, c)
	p.mu.Unlock()
}

// Run reads each client's handler under the pool's lock.
func (p *Pool) Run() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.clients {
		if c.opt.proc != nil {
			c.opt.proc()
		}
	}
}

// SetProc writes them, and reads the list, with no lock.
func (p *Pool) SetProc(f func()) {
	for _, c := range p.clients { // want `Pool.clients read in Pool.SetProc \(exported method: Pool.SetProc\) races with its write in Pool.Add`
		c.opt.proc = f // want `Options.proc written in Pool.SetProc \(exported method: Pool.SetProc\) races with its read in Pool.Run`
	}
}
