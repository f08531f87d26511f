// Package library has no main: the exported methods of Pool, whose
// methods take Pool's own lock, are roots that may run at the same time
// (RacerD's rule). Config takes no lock of its own, so its methods are
// not roots: nothing says it is used concurrently. A race between two
// exported methods rests on that assumption, so it is reported only where
// one of the accesses holds a lock or the field is guarded by a lock of
// its own type somewhere: Pool.limit, written and read with no lock
// anywhere, is not.
package library

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type Pool struct {
	mu    sync.Mutex
	idle  []int
	limit int
	stats int

	closeMu sync.Mutex
	closed  chan struct{}
	err     error // written before closed is closed, read after a receive from it
}

// Close publishes err by closing closed: whoever wakes from closed reads
// it after the write (the shape of yamux's Session.shutdownErr).
func (p *Pool) Close() {
	p.closeMu.Lock()
	if p.err == nil {
		p.err = errClosed
	}
	p.closeMu.Unlock()
	close(p.closed)
}

func (p *Pool) Wait() error {
	select {
	case <-p.closed:
		return p.err
	}
}

func (p *Pool) Get() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return 0
	}
	n := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1] // locked: reported at the read below
	p.stats++                       // under mu: no race
	return n
}

func (p *Pool) Put(n int) {
	p.mu.Lock()
	p.idle = append(p.idle, n) // locked: reported at the read below
	p.mu.Unlock()
	if len(p.idle) > p.limit { // want `Pool.idle read in Pool.Put .* races with its write in Pool.Get .*\(and 2 more accesses\); no lock is held at both \(the read holds none, the other Pool.mu\)`
	}
}

func (p *Pool) SetLimit(n int) {
	p.limit = n // no lock at either access, and limit is never locked: not reported
}

type Config struct{ name string }

func (c *Config) SetName(n string) { c.name = n }
func (c *Config) Name() string     { return c.name }
