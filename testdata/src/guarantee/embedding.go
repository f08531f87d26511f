package guarantee

import "sync"

// ---- embedding and promotion ----

type Inner struct {
	mu sync.Mutex
	n  int //guard:by mu
}

//guard:holds i.mu
func (i *Inner) bumpLocked() { i.n++ }

type Outer struct {
	Inner
}

type OuterPtr struct {
	*Inner
}

func promotedFieldBad(o *Outer) {
	o.n++ // want `o.n written while o.mu is not known to be held`
}

func promotedFieldGood(o *Outer) {
	o.mu.Lock() // the promoted lock is o.Inner.mu
	o.n++
	o.mu.Unlock()
}

func promotedMixedGood(o *Outer) {
	o.Inner.mu.Lock()
	o.n++
	o.Inner.n++
	o.mu.Unlock()
}

func promotedThroughPointerBad(o *OuterPtr) {
	o.n++ // want `o.n written while o.mu is not known to be held`
}

func promotedThroughPointerGood(o *OuterPtr) {
	o.mu.Lock()
	o.n++
	o.mu.Unlock()
}

func promotedMethodBad(o *Outer) {
	o.bumpLocked() // want `call to o.bumpLocked needs o.mu locked`
}

func promotedMethodGood(o *Outer) {
	o.mu.Lock()
	o.bumpLocked()
	o.mu.Unlock()
}

// An embedded lock: the guard names the type, the lock is taken through
// the promoted methods.
type EmbeddedLock struct {
	sync.RWMutex
	n int //guard:by RWMutex
}

func embeddedLockBad(e *EmbeddedLock) {
	e.RLock()
	e.n++ // want `e.n written while e.RWMutex is read-locked`
	e.RUnlock()
}

func embeddedLockGood(e *EmbeddedLock) {
	e.Lock()
	e.n++
	e.Unlock()
}

// A lock in an embedded struct guarding a field of the outer one.
type Base struct{ mu sync.Mutex }

type Derived struct {
	Base
	n int //guard:by mu
}

func embeddedBaseLockBad(d *Derived) {
	d.n++ // want `d.n written while d.mu is not known to be held`
}

func embeddedBaseLockGood(d *Derived) {
	d.mu.Lock()
	d.n++
	d.Base.mu.Unlock()
}

func promotedMethodExprBad(o *Outer) {
	(*Outer).bumpLocked(o) // want `call to \(\*Outer\).bumpLocked needs o.mu locked`
}

func promotedMethodExprGood(o *Outer) {
	o.mu.Lock()
	(*Outer).bumpLocked(o)
	o.mu.Unlock()
}
