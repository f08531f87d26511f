// Package flaglock: a helper that takes the lock only when its caller
// says so (nats.go's wsEnqueueControlMsg(needsLock bool, ...)) holds it
// after that branch on both ways: a caller passing false holds it
// already. What the helper does to its callers' locks is unchanged:
// after enqueue(true, ...) the caller holds nothing.
package flaglock

import "sync"

type Conn struct {
	mu     sync.Mutex
	frames [][]byte
	closed bool
	n      int
}

func (c *Conn) enqueue(needsLock bool, f []byte) {
	if needsLock {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.frames = append(c.frames, f) // under c.mu on both ways: not reported
}

func (c *Conn) Send(f []byte) { c.enqueue(true, f) }

func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.enqueue(false, nil)
}

func (c *Conn) Flush() {
	c.mu.Lock()
	c.frames = nil
	c.mu.Unlock()
}

// Count's update comes after enqueue has released the lock it took.
func (c *Conn) Count() {
	c.enqueue(true, nil)
	c.n++ // want `Conn.n written in Conn.Count .* races with its (read|write) in Conn.(Stat|Count).*`
}

func (c *Conn) Stat() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
