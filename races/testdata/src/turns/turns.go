// Package turns has no main: Conn's exported methods run at once by
// assumption (Conn locks its own mutex). Connect starts one read loop,
// not in a loop, so two read loops run at once only if two Connects on
// one connection do, which a library whose goroutines take turns
// (nats.go's readLoop, restarted only after the last one is waited for)
// never does: its instances are not paired with each other, on state
// nothing locks or state locked elsewhere. Workers started in a loop run at
// once by the program's own doing, and race on the count Handled reads
// under the lock. (In a library, whose every goroutine an exported
// method starts, a race is reported only with evidence that its location
// is shared state: a lock at one side, or some access of it under a lock
// of its type; fixture library.)
package turns

import "sync"

type parser struct {
	state int
	buf   []byte
}

type Conn struct {
	mu      sync.Mutex
	ps      *parser
	status  int
	handled int
	started int
	reads   int
	scratch int
}

func (c *Conn) Connect() {
	c.mu.Lock()
	c.status = 1
	c.ps = &parser{}
	c.mu.Unlock()
	go c.readLoop()
	c.started++
}

func (c *Conn) readLoop() {
	c.mu.Lock()
	ps := c.ps
	c.mu.Unlock()
	for i := 0; i < 10; i++ {
		ps.state = i // another Connect's read loop has another parser, or runs after this one: not reported
		ps.buf = append(ps.buf, byte(i))
		c.reads++ // guarded below, but only another Connect's read loop could race with it: not reported
	}
	c.mu.Lock()
	_ = c.reads
	c.mu.Unlock()
}

// Serve starts its workers in a loop: they run at once with each other
// in one call of Serve.
func (c *Conn) Serve(n int) {
	for i := 0; i < n; i++ {
		go c.worker()
	}
}

func (c *Conn) worker() {
	c.scratch++ // never locked anywhere: in a library, no evidence it is shared state; not reported
	c.handled++ // want `Conn.handled written in Conn.worker .* races with its (read|write) in Conn.(worker|Handled)`
}

// Handled reads the count under the lock: the program guards it.
func (c *Conn) Handled() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handled
}

func (c *Conn) Status() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}
