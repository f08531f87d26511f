package use

import (
	"sync"

	"funcvalrelease/cleanup"
)

// Mutex wraps a sync.Mutex, as gVisor's sync.Mutex does: its Unlock
// releases the inner lock too, through a method value as well.
type Mutex struct{ m sync.Mutex }

func (m *Mutex) Lock()   { m.m.Lock() }
func (m *Mutex) Unlock() { m.m.Unlock() }

type Loader struct {
	mu    Mutex
	state int //guard:by mu
}

type Restorer struct{ mu sync.Mutex }

// restore takes r.mu, then l.mu.
func (r *Restorer) restore(l *Loader) {
	r.mu.Lock()
	l.mu.Lock() // no cycle with RestoreHeld: there restore takes the l.mu already held, a self-deadlock reported alone
	l.state = 1
	l.mu.Unlock()
	r.mu.Unlock()
}

// Restore releases l.mu through the cleanup before restore takes r.mu and
// l.mu: no order edge from l.mu to r.mu, no self-deadlock.
func Restore(l *Loader, r *Restorer) {
	l.mu.Lock()
	cu := cleanup.Make(l.mu.Unlock)
	defer cu.Clean()
	l.state = 2
	cu.Clean()
	r.restore(l)
}

// RestoreHeld forgets to run the cleanup first.
func RestoreHeld(l *Loader, r *Restorer) {
	l.mu.Lock()
	cu := cleanup.Make(l.mu.Unlock)
	defer cu.Clean()
	l.state = 2
	r.restore(l) // want `call to r.restore locks l.mu, which is already held here`
}
