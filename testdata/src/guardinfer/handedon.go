package guardinfer

import "sync"

// An object handed on only as method values (a callback registered with
// a bus) or to go r.loop() is shared with code that reaches only the
// fields those methods select through their receiver: until it is shared
// some other way, the constructor's accesses to its other fields need no
// lock. A local closure only ever called where it is defined shares
// nothing. Each has a reported twin.

type Replica struct {
	mu      sync.Mutex
	inbox   []string // guarded by mu
	applied int      // guarded by mu
	term    int      // guarded by mu
	quit    chan struct{}
}

func (r *Replica) enqueue(m string) {
	r.mu.Lock()
	r.inbox = append(r.inbox, m)
	r.mu.Unlock()
}

func (r *Replica) loop() {
	for range r.quit {
		r.mu.Lock()
		r.inbox = r.inbox[:0]
		r.mu.Unlock()
	}
}

func (r *Replica) Apply(n int) {
	r.mu.Lock()
	r.applied += n
	r.term++
	r.mu.Unlock()
}

func (r *Replica) Term() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.term
}

type msgBus struct{ subs []func(string) }

func (b *msgBus) subscribe(f func(string)) { b.subs = append(b.subs, f) }

// NewReplica registers r.enqueue and starts r.loop, which reach r.inbox
// (and r.quit) only: the replay of r.applied and r.term after them is the
// constructor's alone. A local helper that captures r is only called
// here. Silent.
func NewReplica(bus *msgBus, log []int) *Replica {
	r := &Replica{quit: make(chan struct{})}
	bus.subscribe(r.enqueue)
	go r.loop()
	replay := func(n int) {
		r.applied += n
	}
	for _, n := range log {
		replay(n)
		r.term = n
	}
	r.resetTerm()
	return r
}

// resetTerm is only called by NewReplica, after go r.loop(), on fields the
// loop never reaches: an init helper. Silent.
func (r *Replica) resetTerm() {
	r.term = 0
}

// NewReplicaDrained calls clearInbox after go r.loop(), and the loop
// reaches r.inbox: clearInbox's write races with it. Reported.
func NewReplicaDrained() *Replica {
	r := &Replica{quit: make(chan struct{})}
	go r.loop()
	r.clearInbox()
	return r
}

func (r *Replica) clearInbox() {
	r.inbox = nil // want `r.inbox is documented as guarded by mu`
}

// NewReplicaLate registers r.Apply, which reaches r.term: the write after
// it can race with a callback. Reported.
func NewReplicaLate(bus *msgBus, n int) *Replica {
	r := &Replica{quit: make(chan struct{})}
	bus.subscribe(func(string) { r.Apply(1) })
	r.term = n // want `r.term is documented as guarded by mu`
	return r
}

// NewReplicaLoop starts r.loop, which reaches r.inbox: the append after
// it races with the loop (reported with clearInbox's write, the first
// site, above).
func NewReplicaLoop(first string) *Replica {
	r := &Replica{quit: make(chan struct{})}
	go r.loop()
	r.inbox = append(r.inbox, first)
	return r
}

// NewReplicaGo hands a closure over r to a goroutine (not a local helper
// only called here): r.applied is shared from then on. Reported.
func NewReplicaGo(n int) *Replica {
	r := &Replica{quit: make(chan struct{})}
	bump := func() { r.Apply(1) }
	go bump()
	r.applied = n // want `r.applied is documented as guarded by mu`
	return r
}
