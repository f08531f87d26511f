// Package evidence is a library whose Conn locks its own mutex, so its
// exported methods are taken to run at once (RacerD's assumption). A
// race that rests on that assumption is reported on state the code
// treats as shared: the location's own type has a lock some access
// holds, or an access holds the lock of an object it reaches the
// location through (c.mu for c.opts.onErr). A request the caller hands
// in, written while the connection happens to hold its pool's lock, is
// not such state: the pool's lock guards the pool.
package evidence

import "sync"

type options struct{ onErr func(error) }

type Conn struct {
	mu   sync.Mutex
	opts options
	pool *pool
}

type pool struct {
	mu   sync.Mutex
	free int
}

type Request struct{ URI string }

// SetErrorHandler replaces the handler under c.mu.
func (c *Conn) SetErrorHandler(f func(error)) {
	c.mu.Lock()
	c.opts.onErr = f
	c.mu.Unlock()
}

// Fail reads it with no lock: a race on state c.mu guards.
func (c *Conn) Fail(err error) {
	if h := c.opts.onErr; h != nil { // want `options.onErr read in Conn.Fail \(exported method: Conn.Fail\) races with its write in Conn.SetErrorHandler`
		h(err)
	}
}

// Do fills the caller's request while it holds the pool's lock.
func (c *Conn) Do(req *Request) {
	c.pool.mu.Lock()
	c.pool.free--
	req.URI = "/" // no report: nothing here guards a request
	c.pool.mu.Unlock()
}

// URI reads a request.
func (c *Conn) URI(req *Request) string {
	return req.URI
}
