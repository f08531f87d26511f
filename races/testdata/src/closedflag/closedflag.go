// Package closedflag: a closed flag checked and set under a lock hands
// what it guards to the one call that set it. Write appends to buf under
// mu once it has seen closed false; Close, the one call that sees closed
// false and sets it, releases buf after unlocking. Every Write that saw
// closed false unlocked before Close locked, and every later one sees it
// true and touches nothing: release races with none of them. What reads
// buf under mu without checking closed (Len) races with release; so does
// a flag a call can set back (Stream.Reopen), and a close that sets the
// flag without checking it first (Pipe.Abort), which runs after Close too.
package closedflag

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type Conn struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
	err    error
}

func (c *Conn) Write(b []byte) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	c.push(b)
	c.mu.Unlock()
	return nil
}

func (c *Conn) push(b []byte) { c.buf = append(c.buf, b...) }

func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	c.release()
	return nil
}

func (c *Conn) release() {
	c.buf = nil
	c.err = errClosed // want `Conn.err written in Conn.release .* races with its read in Conn.Err`
}

// Err reads err under mu, having checked nothing.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

type Stream struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

func (s *Stream) Write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.buf = append(s.buf, b...)
	}
}

func (s *Stream) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.buf = nil // want `Stream.buf written in Stream.Close .* races with its (read|write) in Stream.Write`
}

// Reopen sets the flag back: a second Close can then run beside a Write
// that saw the stream open.
func (s *Stream) Reopen() {
	s.mu.Lock()
	s.closed = false
	s.mu.Unlock()
}

type Pipe struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

func (p *Pipe) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	p.buf = nil // want `Pipe.buf written in Pipe.Close .* races with its write in Pipe.Abort`
}

// Abort sets the flag, and empties buf under the lock, without checking
// the flag first: after a Close, it still runs, beside Close's release.
func (p *Pipe) Abort() {
	p.mu.Lock()
	p.closed = true
	p.buf = p.buf[:0]
	p.mu.Unlock()
}
