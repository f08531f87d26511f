// Package wrappers covers locks that are not a plain sync.Mutex field:
// wrapper types embedding a mutex, wrappers with their own Lock/Unlock,
// embedded mutexes, sync.Locker fields and pointer lock fields.
package wrappers

import "sync"

// ---- a wrapper type that embeds sync.Mutex (no methods of its own) ----

type DMutex struct{ sync.Mutex }

type A struct {
	mu DMutex
	n  int //guard:by mu
}

func (a *A) inc() {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
}

func (a *A) incDefer() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
}

func (a *A) incExplicitEmbedded() {
	a.mu.Mutex.Lock()
	a.n++
	a.mu.Mutex.Unlock()
}

func (a *A) racy() int {
	return a.n // want `a.n read while a.mu is not known to be held`
}

func (a *A) afterUnlock() {
	a.mu.Lock()
	a.mu.Unlock()
	a.n++ // want `a.n written while a.mu is not held`
}

func (a *A) tryLock() {
	if a.mu.TryLock() {
		a.n++
		a.mu.Unlock()
	}
}

func (a *A) doubleLock() {
	a.mu.Lock()
	a.mu.Lock() // want `a.mu.Lock\(\) while a.mu is already locked`
	a.mu.Unlock()
}

// ---- a struct embedding the wrapper type ----

type W struct {
	DMutex
	n int //guard:by DMutex
}

func (w *W) inc() {
	w.Lock()
	w.n++
	w.Unlock()
}

func (w *W) incExplicit() {
	w.DMutex.Lock()
	w.n++
	w.DMutex.Unlock()
}

func (w *W) racy() {
	w.n++ // want `w.n written while w.DMutex is not known to be held`
}

// ---- a wrapper with its own Lock and Unlock methods ----

type TMutex struct {
	m     sync.Mutex
	owner int
}

func (t *TMutex) Lock()   { t.m.Lock(); t.owner = 1 }
func (t *TMutex) Unlock() { t.owner = 0; t.m.Unlock() }

type B struct {
	mu TMutex
	n  int //guard:by mu
}

func (b *B) inc() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

func (b *B) incDefer() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
}

func (b *B) relock() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

func (b *B) racy() {
	b.n++ // want `b.n written while b.mu is not known to be held`
}

func (b *B) afterUnlock() {
	b.mu.Lock()
	b.mu.Unlock()
	b.n++ // want `b.n written while b.mu is not held`
}

func (b *B) unlockTwice() {
	b.mu.Lock()
	b.mu.Unlock()
	b.mu.Unlock() // want `b.mu.Unlock\(\) but b.mu is not held here`
}

// ---- a wrapper that embeds sync.Mutex and overrides only Lock ----

type Traced struct {
	sync.Mutex
	locks int
}

func (t *Traced) Lock() {
	t.Mutex.Lock()
	t.locks++
}

type T struct {
	mu Traced
	n  int //guard:by mu
}

func (t *T) inc() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// ---- an embedded sync.RWMutex ----

type E struct {
	sync.RWMutex
	n int //guard:by RWMutex
}

func (e *E) get() int {
	e.RLock()
	defer e.RUnlock()
	return e.n
}

func (e *E) set(v int) {
	e.Lock()
	e.n = v
	e.Unlock()
}

func (e *E) setExplicit(v int) {
	e.RWMutex.Lock()
	defer e.RWMutex.Unlock()
	e.n = v
}

func (e *E) mixed(v int) {
	e.Lock()
	e.n = v
	e.RWMutex.Unlock()
}

func (e *E) setUnderRead(v int) {
	e.RLock()
	e.n = v // want `e.n written while e.RWMutex is read-locked`
	e.RUnlock()
}

func (e *E) racy() int {
	return e.n // want `e.n read while e.RWMutex is not known to be held`
}

func (e *E) wrongMode() {
	e.RLock()
	_ = e.n
	e.Unlock() // want `e.Unlock\(\) but e is read-locked here; use RUnlock`
}

// An outer struct reaching the embedded mutex through a field.
type Outer struct {
	inner E
	other E
}

func (o *Outer) get() int {
	o.inner.RLock()
	defer o.inner.RUnlock()
	return o.inner.n
}

func (o *Outer) wrongInstance() int {
	o.inner.RLock()
	defer o.inner.RUnlock()
	return o.other.n // want `o.other.n read while o.other.RWMutex is not known to be held`
}

// ---- a sync.Locker interface field ----

type L struct {
	mu sync.Locker
	n  int //guard:by mu
}

func newL() *L { return &L{mu: &sync.Mutex{}} }

func (l *L) inc() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
}

func (l *L) racy() {
	l.n++ // want `l.n written while l.mu is not known to be held`
}

func (l *L) afterUnlock() {
	l.mu.Lock()
	l.mu.Unlock()
	l.n++ // want `l.n written while l.mu is not held`
}

// ---- a pointer lock field ----

type P struct {
	mu *sync.Mutex
	n  int //guard:by mu
}

func (p *P) inc() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
}

func (p *P) racy() int {
	return p.n // want `p.n read while p.mu is not known to be held`
}

func (p *P) other(q *P) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q.n++ // want `q.n written while q.mu is not known to be held`
}

func (p *P) aliasLock() {
	m := p.mu
	m.Lock()
	p.n++
	m.Unlock()
}

// A pointer RWMutex.
type PR struct {
	mu *sync.RWMutex
	n  int //guard:by mu
}

func (p *PR) get() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.n
}

func (p *PR) setUnderRead() {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.n = 1 // want `p.n written while p.mu is read-locked`
}

// ---- an embedded pointer mutex ----

type EP struct {
	*sync.Mutex
	n int //guard:by Mutex
}

func (e *EP) inc() {
	e.Lock()
	defer e.Unlock()
	e.n++
}

func (e *EP) racy() {
	e.n++ // want `e.n written while e.Mutex is not known to be held`
}

// ---- a mutex promoted through two levels of embedding ----

type Inner struct {
	sync.Mutex
	n int //guard:by Mutex
}

type Outer2 struct {
	Inner
	tag string
}

func (o *Outer2) inc() {
	o.Lock()
	o.n++
	o.Unlock()
}

func (o *Outer2) incExplicit() {
	o.Inner.Lock()
	o.Inner.n++
	o.n++
	o.Inner.Unlock()
}

func (o *Outer2) racy() int {
	return o.n // want `o.n read while o.Mutex is not known to be held`
}

// Traced overrides Lock but inherits Unlock from the embedded sync.Mutex.
func (t *T) relock() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

func (t *T) afterUnlock() {
	t.mu.Lock()
	t.mu.Unlock()
	t.n++ // want `t.n written while t.mu is not held`
}
