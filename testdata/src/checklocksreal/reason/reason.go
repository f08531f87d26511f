// Package reason reproduces gVisor's force and ignore annotations
// written with a reason after a colon
// (pkg/tcpip/network/ipv6/ndp.go, link/qdisc/fifo, sentry/kernel).
package reason

import "sync"

type endpoint struct {
	mu sync.Mutex

	// +checklocks:mu
	routes int
}

// +checklocks:e.mu
func (e *endpoint) invalidateRoute() { e.routes-- }

// +checklocks:e.mu
// +checklocks:n.mu
func (e *endpoint) propagateLocked(n *endpoint) { n.routes = e.routes }

// +checklocksexclude:e.mu
func (e *endpoint) Close() {
	e.mu.Lock()
	e.routes = 0
	e.mu.Unlock()
}

// newJob runs fn later with mu held, which no annotation can say.
func newJob(mu sync.Locker, fn func()) {}

func (e *endpoint) Schedule() {
	newJob(&e.mu, func() {
		e.invalidateRoute() // +checklocksforce: newJob calls back with e.mu held.
	})
	newJob(&e.mu, func() {
		e.routes++ // +checklocksforce: newJob calls back with e.mu held.
	})
	newJob(&e.mu, func() {
		e.invalidateRoute() // want `call to e.invalidateRoute needs e.mu locked \(//guard:holds e.mu\), but e.mu is not known to be held here`
	})
}

// The text after the colon is a reason even when it looks like a lock
// path: checklocks matches the annotation by prefix.
func (e *endpoint) Accept(n *endpoint) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.propagateLocked(n) // +checklocksforce:n.mu
	e.propagateLocked(n) // n.mu is held from the forced line on
}

func (e *endpoint) AcceptUnforced(n *endpoint) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.propagateLocked(n) // want `call to e.propagateLocked needs n.mu locked \(//guard:holds n.mu\), but n.mu is not known to be held here`
}

// A forced line is taken as correct: its excludes are not checked either.
func (e *endpoint) CloseLocked() {
	e.mu.Lock()
	e.Close() // +checklocksforce: Close is told the lock is held.
	e.mu.Unlock()
}

func (e *endpoint) CloseHeld() {
	e.mu.Lock()
	e.Close() // want `call to e.Close needs e.mu not held`
	e.mu.Unlock()
}

// New initialises an endpoint no other goroutine can see yet.
//
// +checklocksignore: we don't have to hold locks during initialization.
func New() *endpoint {
	e := &endpoint{}
	p := e
	p.routes = 1
	p.invalidateRoute()
	return e
}

func (e *endpoint) Reset() {
	e.routes = 0 // +checklocksignore: e is not visible to anything yet
	e.routes = 1 // want `e.routes written while e.mu is not known to be held`
}

// A forced lock operation is not reported either (gVisor:
// c.sockMu.Unlock() // +checklocksforce: locked in acquireCommunicator()).
func (e *endpoint) UnlockForced(relock func()) {
	e.mu.Lock()
	e.mu.Unlock()
	relock()
	e.mu.Unlock() // +checklocksforce: relock locked it again.
}

func (e *endpoint) UnlockTwice(relock func()) {
	e.mu.Lock()
	e.mu.Unlock()
	relock()
	e.mu.Unlock() // want `e.mu.Unlock\(\) but e.mu is not held here`
}
