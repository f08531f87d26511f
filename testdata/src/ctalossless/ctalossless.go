// Package ctalossless covers check-then-acts that cannot lose an update,
// left out by default, each with a twin that can and stays reported: the
// act is in a callee that re-checks the field itself (machine.Restore);
// the write stores V only when the check said the field differed from V;
// the field is only ever given one constant (a flag set once, a reference
// cleared once). ctastrict checks the same shapes under -config.strict,
// where they are reported.
package ctalossless

import (
	"sync"
	"sync/atomic"

	"ctalossless/machine"
)

// StartOrRestore: Restore decides from its own read of the state.
func StartOrRestore(m *machine.Machine) error { // want StartOrRestore:`fieldops\(reads-internally m\.state, rechecks-writes m\.state\)`
	if m.State() == machine.Restoring {
		return m.Restore()
	}
	return nil
}

// ResumeIfRestoring: Resume decides from its own read of the state, and
// acts in a callee and in a deferred closure.
func ResumeIfRestoring(m *machine.Machine) error { // want ResumeIfRestoring:`fieldops\(reads-internally m\.state, decides-writes m\.state\)`
	if m.State() == machine.Restoring {
		return m.Resume()
	}
	return nil
}

// StartIfIdle: Start acts on the caller's stale check.
func StartIfIdle(m *machine.Machine) { // want StartIfIdle:`fieldops\(reads-internally m\.state, decides-writes m\.state\)`
	if m.State() == machine.Idle {
		m.Start() // want `check-then-act: m.state was read at line 36 \(in m.State\) and the lock released`
	}
}

type Conn struct {
	mu      sync.Mutex
	mode    int           //guard:by mu
	started bool          //guard:by mu
	closed  bool          //guard:by mu
	peer    *Conn         //guard:by mu
	n       int           //guard:by mu
	phase   int           //guard:by mu
	ch      chan struct{} //guard:by mu
	fast    atomic.Uint32
}

func NewConn(peer *Conn) *Conn {
	return &Conn{peer: peer, ch: make(chan struct{})}
}

func (c *Conn) Mode() int { // want Mode:`fieldops\(reads c\.mode\)`
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mode
}

// SetMode stores m only when the mode differed from m: idempotent.
func (c *Conn) SetMode(m int) { // want SetMode:`fieldops\(reads-internally c\.mode, decides-writes c\.mode\)`
	if c.Mode() != m {
		c.mu.Lock()
		c.mode = m
		c.mu.Unlock()
	}
}

// SetModeAndNotify does more than the store on the stale decision.
func (c *Conn) SetModeAndNotify(m int) { // want SetModeAndNotify:`fieldops\(reads-internally c\.mode, decides-writes c\.mode\)`
	if c.Mode() != m {
		c.mu.Lock()
		c.mode = m // want `check-then-act: c.mode was read at line 74 \(in c.Mode\) and the lock released`
		c.mu.Unlock()
		c.notify()
	}
}

func (c *Conn) notify() {}

const modeClosed = -1

// SetModeUnlessClosed: a guard clause on the same read decides the store
// too; the mode may have been closed since, and m would reopen it.
func (c *Conn) SetModeUnlessClosed(m int) { // want SetModeUnlessClosed:`fieldops\(reads-internally c\.mode, decides-writes c\.mode\)`
	v := c.Mode()
	if v == modeClosed {
		return
	}
	if v != m {
		c.mu.Lock()
		c.mode = m // want `check-then-act: c.mode was read at line 89 \(in c.Mode\) and the lock released`
		c.mu.Unlock()
	}
}

// Start: started is only ever set to true, so two callers that both saw
// false both store true.
func (c *Conn) Start() { // want Start:`fieldops\(reads-internally c\.started, decides-writes c\.started\)`
	c.mu.Lock()
	s := c.started
	c.mu.Unlock()
	if !s {
		c.mu.Lock()
		c.started = true
		c.mu.Unlock()
	}
}

// Close: closed is only ever set to true, but the stale check also closes
// the channel, twice for two callers.
func (c *Conn) Close() { // want Close:`fieldops\(reads-internally c\.closed, decides-writes c\.closed, reads-internally c\.ch\)`
	c.mu.Lock()
	done := c.closed
	c.mu.Unlock()
	if !done {
		c.mu.Lock()
		c.closed = true // want `check-then-act: c.closed was read at line 117 and the lock released`
		close(c.ch)
		c.mu.Unlock()
	}
}

// Detach: peer is only ever cleared once the Conn is built.
func (c *Conn) Detach() { // want Detach:`fieldops\(reads-internally c\.peer, decides-writes c\.peer\)`
	c.mu.Lock()
	p := c.peer
	c.mu.Unlock()
	if p != nil {
		c.mu.Lock()
		c.peer = nil
		c.mu.Unlock()
	}
}

// Bump: a counter incremented after a stale check loses increments.
func (c *Conn) Bump(max int) { // want Bump:`fieldops\(reads-internally c\.n, decides-writes c\.n\)`
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	if v < max {
		c.mu.Lock()
		c.n++ // want `check-then-act: c.n was read at line 142 and the lock released`
		c.mu.Unlock()
	}
}

// Advance moves phase 0 to 1; Finish moves it to 2: the stale check can
// move a finished phase back to 1.
func (c *Conn) Advance() { // want Advance:`fieldops\(reads-internally c\.phase, decides-writes c\.phase\)`
	c.mu.Lock()
	p := c.phase
	c.mu.Unlock()
	if p == 0 {
		c.mu.Lock()
		c.phase = 1 // want `check-then-act: c.phase was read at line 155 and the lock released`
		c.mu.Unlock()
	}
}

func (c *Conn) Finish() { // want Finish:`fieldops\(writes c\.phase\)`
	c.mu.Lock()
	c.phase = 2
	c.mu.Unlock()
}

// SetFast stores only when the flag differs: idempotent.
func (c *Conn) SetFast(on bool) {
	v := uint32(0)
	if on {
		v = 1
	}
	if c.fast.Load() != v {
		c.fast.Store(v)
	}
}

// EnableFast stores what the caller chose when the flag was zero.
func (c *Conn) EnableFast(v uint32) {
	if c.fast.Load() == 0 {
		c.fast.Store(v) // want `check-then-act: c.fast.Store runs only after c.fast.Load\(\) said so`
	}
}

// Job's done is set to true only, but Reset overwrites the whole Job,
// done with it: not a one-way flag.
type Job struct {
	mu   *sync.Mutex
	done bool //guard:by mu
}

func (j *Job) Finish() { // want Finish:`fieldops\(reads-internally j\.done, decides-writes j\.done\)`
	j.mu.Lock()
	d := j.done
	j.mu.Unlock()
	if !d {
		j.mu.Lock()
		j.done = true // want `check-then-act: j.done was read at line 197 and the lock released`
		j.mu.Unlock()
	}
}

func (j *Job) Reset() {
	j.mu.Lock()
	*j = Job{mu: j.mu}
	j.mu.Unlock()
}
