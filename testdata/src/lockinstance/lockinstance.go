// Package lockinstance covers lock-order cycles that close on the lock
// instance the chain already holds: a caller holding x.a calls a helper
// that takes x.b and then x.a again. That is one goroutine deadlocking on
// itself, reported once as such, not an AB-BA between two goroutines.
// The same shape on another instance (the helper takes y.b, then y.a of
// another object) keeps its cycle.
package lockinstance

import "sync"

type Pair struct {
	a, b sync.Mutex
	n    int //guard:by a
}

// takeBThenA takes p.b, then p.a.
func (p *Pair) takeBThenA() {
	p.b.Lock()
	p.a.Lock()
	p.n++
	p.a.Unlock()
	p.b.Unlock()
}

// Same holds p.a and calls the helper on the same pair: a self-deadlock,
// and no "potential deadlock" cycle on top of it.
func (p *Pair) Same() {
	p.a.Lock()
	defer p.a.Unlock()
	p.takeBThenA() // want `call to p.takeBThenA locks p.a, which is already held here`
}

type Room struct {
	mu       sync.Mutex
	sessions []*Session //guard:by mu
}

type Session struct {
	mu   sync.Mutex
	room *Room
	name string //guard:by mu
}

// Broadcast holds the room's lock and takes each session's.
func (r *Room) Broadcast() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sessions {
		s.mu.Lock() // want `potential deadlock: Session.mu is acquired here \(s.mu\) while Room.mu is held \(r.mu\)`
		_ = s.name
		s.mu.Unlock()
	}
}

// Leave holds the session's lock and takes its room's: with Broadcast,
// a session leaving a room while the room broadcasts to it deadlocks.
// Other instances, so the cycle stays reported.
func (s *Session) Leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.room.remove(s)
}

func (r *Room) remove(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.sessions {
		if x == s {
			r.sessions = append(r.sessions[:i], r.sessions[i+1:]...)
			return
		}
	}
}
