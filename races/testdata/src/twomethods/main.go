// Package main: two methods of one object run from different goroutines,
// one under a lock and one under another lock or none (GoKer's shape from
// gRPC and moby).
package main

import "sync"

type Conn struct {
	mu, stateMu sync.Mutex
	state       int
	closed      bool
	reads       int
}

func (c *Conn) SetState(s int) {
	c.mu.Lock()
	c.state = s // want `Conn.state written in Conn.SetState .* races with its read in Conn.State .*the write holds Conn.mu, the other Conn.stateMu`
	c.mu.Unlock()
}

func (c *Conn) State() int {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	return c.state
}

func (c *Conn) Close() {
	c.closed = true // want `Conn.closed written in Conn.Close .* races with its read in Conn.loop`
}

func (c *Conn) loop() {
	for !c.closed {
		c.mu.Lock()
		c.reads++ // under mu on both sides: no race
		c.mu.Unlock()
	}
}

func (c *Conn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

func main() {
	c := &Conn{}
	go c.loop()
	go c.SetState(1)
	_ = c.State()
	_ = c.count()
	c.Close()
}
