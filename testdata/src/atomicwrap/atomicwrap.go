// Package atomicwrap covers atomic access through wrapper types: a
// //guard:atomic field of a type whose methods are implemented with
// sync/atomic is accessed atomically through those methods, and
// sync/atomic functions see through conversions of the field's address.
package atomicwrap

import (
	"sync"
	"sync/atomic"

	"atomicwrap/lib"
)

type decision uint32

type local struct{ v uint32 }

func (l *local) load() uint32       { return atomic.LoadUint32(&l.v) }
func (l *local) store(x uint32)     { atomic.StoreUint32(&l.v, x) }
func (l *local) racyStore(x uint32) { l.v = x }

type T struct {
	mu  sync.Mutex
	n   lib.Int32   //guard:atomic
	c   lib.Counter //guard:atomic
	d   decision    //guard:atomic
	l   local       //guard:atomic
	cnt lib.Int32   //guard:atomic
	//guard:by mu
	//guard:atomic
	both lib.Int32
}

func (t *T) Good() int32 {
	t.n.Store(t.n.Load() + 1)
	t.n.Add(1)
	t.n.CompareAndSwap(1, 2)
	t.c.Inc()
	atomic.CompareAndSwapUint32((*uint32)(&t.d), 0, 1)
	atomic.StoreUint32((*uint32)(&t.d), uint32(decision(2)))
	t.l.store(t.l.load())
	x := t.both.Load() // an atomic load needs no lock
	t.mu.Lock()
	t.both.Store(x) // locked and atomic
	t.mu.Unlock()
	return t.c.Get() + int32(decision(atomic.LoadUint32((*uint32)(&t.d))))
}

func (t *T) Bad() int32 {
	t.n.RacyStore(1)     // want `t.n written without sync/atomic`
	_ = t.cnt.RacyLoad() // want `t.cnt read without sync/atomic`
	p := t.n.Ptr()       // want `t.n written without sync/atomic`
	t.c.Bump()           // want `t.c written without sync/atomic`
	t.l.racyStore(1)     // want `t.l written without sync/atomic`
	t.d = 3              // want `t.d written without sync/atomic`
	t.both.Store(1)      // want `t.both written while t.mu is not known to be held`
	return *p
}
