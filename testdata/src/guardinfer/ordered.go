package guardinfer

import (
	"sync"
	"sync/atomic"
)

// Reads ordered by an atomic load of the same object: the fast path of
// double-checked initialisation. The writer sets a field under the lock,
// then publishes it with an atomic store of a state flag; a reader that
// sees the flag set (an atomic load, here or in a method of the object
// that makes one) reads the field without the lock. Silent. A read outside
// the branch the load guards, or after a load of another object, is
// reported.

type lazyType struct {
	mu    sync.Mutex // guards all fields below
	state uint32     // its bits say which fields are set; accessed atomically
	size  int
	elem  *int
	ready atomic.Bool
	depth int
}

func (t *lazyType) has(bit uint32) bool { return atomic.LoadUint32(&t.state)&bit != 0 }

func (t *lazyType) set(bit uint32) {
	atomic.StoreUint32(&t.state, atomic.LoadUint32(&t.state)|bit)
}

func (t *lazyType) Size() int {
	if t.has(1) {
		return t.size // ordered by the load in t.has: silent
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.has(1) {
		t.size = 8
		t.set(1)
	}
	return t.size
}

func (t *lazyType) Elem() *int {
	if atomic.LoadUint32(&t.state)&2 != 0 {
		return t.elem // ordered by the atomic load in the condition: silent
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.elem == nil {
		t.elem = new(int)
		t.set(2)
	}
	return t.elem
}

func (t *lazyType) Depth() int {
	if t.ready.Load() {
		return t.depth // ordered by the load of an atomic field: silent
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.depth = 1
	t.ready.Store(true)
	return t.depth
}

// SizeOr reads size whether or not the flag is set: reported.
func (t *lazyType) SizeOr() int {
	if t.has(1) {
		println("set")
	}
	return t.size // want `t.size is documented as guarded by mu`
}

// ElemOf checks another object's flag: reported.
func (t *lazyType) ElemOf(u *lazyType) *int {
	if u.has(2) {
		return t.elem // want `t.elem is documented as guarded by mu`
	}
	return nil
}

// A plain read after an atomic load that orders it, as the comment on the
// line says (load-acquire, load-consume), is explained; one without such
// a comment is reported.
type ring struct {
	mu   sync.Mutex
	size int64
	head int64
}

func (r *ring) grow() {
	r.mu.Lock()
	atomic.StoreInt64(&r.head, 0)
	atomic.StoreInt64(&r.size, 2)
	r.mu.Unlock()
}

func (r *ring) peek() int64 {
	n := atomic.LoadInt64(&r.size) // load-acquire
	h := r.head                    // load-consume: ordered by the load of size
	return n + h
}

func (r *ring) peekRacy() int64 {
	return r.head // want `r.head is accessed with sync/atomic elsewhere`
}

// After a barrier: once a double-checked initialiser of the object has run
// here (unpack: return if the state says done, else lock and set), or an
// if !loaded { resolve } has, the object's state is published to this
// goroutine: the reads after it are silent. Before it, reported.
type lazyNamed struct {
	mu      sync.Mutex // guards all fields below
	state   atomic.Uint32
	methods []string
	under   string
}

func (n *lazyNamed) unpack() {
	if n.state.Load()&1 != 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.state.Load()&1 == 0 {
		n.methods = []string{"String"}
		n.state.Store(n.state.Load() | 1)
	}
}

func (n *lazyNamed) resolve() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.under = "int"
	n.state.Store(n.state.Load() | 2)
}

func (n *lazyNamed) NumMethods() int {
	n.unpack()
	return len(n.methods) // after the barrier: silent
}

func (n *lazyNamed) Underlying() string {
	if n.state.Load()&2 == 0 {
		n.resolve()
	}
	return n.under // after if-not-loaded-resolve: silent
}

func (n *lazyNamed) Methods() []string {
	m := n.methods // want `n.methods is documented as guarded by mu`
	n.unpack()
	return m
}

func (n *lazyNamed) UnderlyingEarly() string {
	u := n.under // want `n.under is documented as guarded by mu`
	if n.state.Load()&2 == 0 {
		n.resolve()
	}
	return u
}
