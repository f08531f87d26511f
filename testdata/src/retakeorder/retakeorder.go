// want package:`edges\(B\.syncMu -> B\.mu, Outer\.mu -> B\.mu, Outer\.mu -> B\.syncMu, Outer2\.w -> Outer\.mu\)`

// Package retakeorder covers lock order and self-deadlock through helpers
// that step out of their caller's lock: what they take while it is
// released is not ordered after it, and calling them with it held does
// not deadlock.
package retakeorder

import "sync"

//guard:order syncMu mu
type B struct {
	syncMu sync.Mutex
	mu     sync.Mutex
	n      int //guard:by mu
}

// syncIfNeeded takes syncMu, then mu: the declared order.
func (b *B) syncIfNeeded() { // want syncIfNeeded:`acquires\(b\.syncMu, b\.mu\)`
	b.syncMu.Lock()
	defer b.syncMu.Unlock()
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

// setStatusLocked is called with b.mu held and steps out of it to sync.
func (b *B) setStatusLocked() { // want setStatusLocked:`acquires\(b\.syncMu \(b\.mu released\)\)`
	b.mu.Unlock()
	b.syncIfNeeded()
	b.mu.Lock()
}

// signalLocked releases b.mu and takes it back in a defer (gVisor's
// ptraceSignalLocked), taking syncMu in between.
func (b *B) signalLocked() { // want signalLocked:`acquires\(b\.syncMu \(b\.mu released\)\)`
	b.mu.Unlock()
	defer b.mu.Lock()
	b.syncMu.Lock()
	defer b.syncMu.Unlock()
}

func (b *B) SetStatus() { // want SetStatus:`acquires\(b\.mu, b\.syncMu\)$`
	b.mu.Lock()
	defer b.mu.Unlock()
	b.setStatusLocked()
	b.signalLocked()
	b.n++
}

// Still reported: syncIfNeeded called with b.mu held deadlocks. It also
// takes syncMu after mu, against the declared order, but that is the same
// mistake (the callee takes b.mu again: one goroutine, one instance), so
// the self-deadlock is the one report.
func (b *B) SyncLocked() { // want SyncLocked:`acquires\(b\.mu, b\.syncMu\)`
	b.mu.Lock()
	defer b.mu.Unlock()
	b.syncIfNeeded() // want `call to b.syncIfNeeded locks b.mu, which is already held here`
}

type Outer struct {
	mu sync.Mutex
}

// Still an edge: o.mu stays held while the helper takes b.syncMu (and
// b.mu is taken here, so it is not the caller's to release).
func (o *Outer) Under(b *B) { // want Under:`acquires\(o\.mu, b\.mu, b\.syncMu\)$`
	o.mu.Lock()
	defer o.mu.Unlock()
	b.mu.Lock()
	b.setStatusLocked()
	b.mu.Unlock()
}

// W is a lock type whose own Lock locks what is inside it (gVisor's
// generated mutexes): p.w and p.w.mu are both held, and order what is
// taken next as one class, Outer2.w.
type W struct{ mu sync.Mutex }

func (w *W) Lock()   { w.mu.Lock() } // want Lock:`acquires\(w\.mu\)`
func (w *W) Unlock() { w.mu.Unlock() }

type Outer2 struct {
	w W
}

func UnderW(p *Outer2, o *Outer) { // want UnderW:`acquires\(p\.w, o\.mu\)`
	p.w.Lock()
	defer p.w.Unlock()
	o.mu.Lock()
	o.mu.Unlock()
}

// stepOutIf releases b.mu and takes it back under the same condition
// (dd-trace's finishedOneLocked): the Lock takes back the caller's lock on
// the paths that released it.
func (b *B) stepOutIf(other *B) { // want stepOutIf:`acquires\(other\.mu \(b\.mu released\)\)`
	same := b == other
	if !same {
		b.mu.Unlock()
		other.mu.Lock()
	}
	if !same {
		other.mu.Unlock()
		b.mu.Lock()
	}
}

func (b *B) CallsStepOutIf(other *B) { // want CallsStepOutIf:`acquires\(b\.mu, other\.mu\)`
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stepOutIf(other)
}
