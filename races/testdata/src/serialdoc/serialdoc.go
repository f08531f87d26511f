// Package serialdoc: a library whose connection type takes its own lock
// only to take back what a goroutine of its own hands it, and whose
// documentation says it is not safe for concurrent use. Its methods are
// not entry points that run at once (RacerD leaves a @NotThreadSafe
// class alone); the pool, documented as safe for concurrent use, is.
package serialdoc

import "sync"

// Conn is a connection handle. It is not safe for concurrent use.
type Conn struct {
	mu     sync.Mutex
	result error // handed back by watch, under mu
	status byte
	buf    []byte
}

// Exec runs a query and waits for the watcher.
func (c *Conn) Exec(q string) error {
	c.status = 'B' // one caller at a time: not reported
	c.buf = append(c.buf[:0], q...)
	done := make(chan struct{})
	go c.watch(done)
	<-done
	c.mu.Lock()
	err := c.result
	c.status = 'I'
	c.mu.Unlock()
	return err
}

func (c *Conn) watch(done chan struct{}) {
	c.mu.Lock()
	c.result = nil
	c.mu.Unlock()
	close(done)
}

// Status is the connection's transaction status.
func (c *Conn) Status() byte { return c.status }

// Pool is safe for concurrent use by multiple goroutines.
type Pool struct {
	mu    sync.Mutex
	conns []*Conn
	size  int
}

// Get takes a connection from the pool.
func (p *Pool) Get() *Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.conns) == 0 {
		return &Conn{}
	}
	c := p.conns[len(p.conns)-1]
	p.conns = p.conns[:len(p.conns)-1]
	return c
}

// Grow makes the pool larger.
func (p *Pool) Grow() {
	p.mu.Lock()
	p.size++
	p.mu.Unlock()
}

// Size reads the size with no lock: a race with Grow.
func (p *Pool) Size() int {
	return p.size // want `Pool.size read in Pool.Size \(exported method: Pool.Size\) races with its write in Pool.Grow`
}

// Client sends events. Modification of its fields concurrently with Send
// is not thread-safe: that speaks of its fields, not of its methods,
// which run at once.
type Client struct {
	mu   sync.Mutex
	rate float64
}

// SetRate sets the sample rate.
func (c *Client) SetRate(r float64) {
	c.mu.Lock()
	c.rate = r
	c.mu.Unlock()
}

// Send reads the rate with no lock: a race with SetRate.
func (c *Client) Send() float64 {
	return c.rate // want `Client.rate read in Client.Send \(exported method: Client.Send\) races with its write in Client.SetRate`
}
