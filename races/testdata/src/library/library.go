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
	p.idle = p.idle[:len(p.idle)-1] // want `Pool.idle written in Pool.Get .* races with its read in Pool.Put .*the write holds Pool.mu, the other none`
	p.stats++                       // under mu: no race
	return n
}

func (p *Pool) Put(n int) {
	p.mu.Lock()
	p.idle = append(p.idle, n) // want `Pool.idle written in Pool.Put .* races with its read in Pool.Put`
	p.mu.Unlock()
	if len(p.idle) > p.limit { // read with no lock: the race both writes of idle above are reported with
	}
}

func (p *Pool) SetLimit(n int) {
	p.limit = n // no lock at either access, and limit is never locked: not reported
}

type Config struct{ name string }

func (c *Config) SetName(n string) { c.name = n }
func (c *Config) Name() string     { return c.name }
