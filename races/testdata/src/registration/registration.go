// Package registration is a library whose Engine locks its own mutex, so
// its exported methods are taken to run at once (RacerD's assumption).
// OnOpen and OnClose only register the callbacks the engine calls when
// a connection opens or closes: users call them while setting the
// engine up, before it runs, and the library, which takes no lock there,
// says so. They are not entry points that run beside Serve. A
// registration that does take the lock (OnEvicted) says it may run at
// any time, and a setter of anything but a callback (SetLimit) is an
// entry point as before: their races are still reported.
package registration

import "sync"

type Conn struct{ id int }

type Engine struct {
	mu        sync.Mutex
	conns     map[int]*Conn
	limit     int
	onOpen    func(*Conn)
	onClose   func(*Conn)
	onEvicted func(*Conn)
	opened    int
}

// OnOpen registers the open callback, wrapped so that a nil one panics
// here and not when a connection opens, and so that opens are counted.
func (e *Engine) OnOpen(h func(*Conn)) {
	if h == nil {
		panic("registration: nil handler")
	}
	e.onOpen = func(c *Conn) {
		e.opened++
		h(c)
	}
}

// OnClose registers the close callback; it returns the engine so that
// registrations chain.
func (e *Engine) OnClose(h func(*Conn)) *Engine {
	e.onClose = h
	return e
}

// OnEvicted registers the eviction callback under the lock: it may be
// replaced while the engine runs.
func (e *Engine) OnEvicted(h func(*Conn)) {
	e.mu.Lock()
	e.onEvicted = h
	e.mu.Unlock()
}

// SetLimit sets a number, not a callback: an entry point like any other.
func (e *Engine) SetLimit(n int) {
	e.limit = n // want `Engine.limit written in Engine.SetLimit \(exported method: Engine.SetLimit\) races with its read in Engine.Serve`
}

// Serve opens a connection and calls the callbacks under the lock.
func (e *Engine) Serve(id int) {
	c := &Conn{id: id}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.conns) >= e.limit {
		return
	}
	e.conns[id] = c
	if e.onOpen != nil { // no report: OnOpen runs at set-up
		e.onOpen(c)
	}
	if e.onClose != nil { // no report: so does OnClose
		e.onClose(c)
	}
}

// Evict removes a connection under the lock and calls the eviction
// callback after unlocking.
func (e *Engine) Evict(id int) {
	e.mu.Lock()
	c := e.conns[id]
	delete(e.conns, id)
	e.mu.Unlock()
	if c != nil && e.onEvicted != nil { // want `Engine.onEvicted read in Engine.Evict \(exported method: Engine.Evict\) races with its write in Engine.OnEvicted`
		e.onEvicted(c)
	}
}
