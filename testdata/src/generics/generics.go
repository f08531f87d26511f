// Package generics covers guarded fields of generic types, their methods
// and instantiations, and generic functions with contracts.
package generics

import "sync"

type Box[T any] struct {
	mu sync.Mutex
	v  T //guard:by mu
}

func (b *Box[T]) Get() T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

func (b *Box[T]) Racy() T {
	return b.v // want `b.v read while b.mu is not known to be held`
}

func (b *Box[T]) RacySet(v T) {
	b.v = v // want `b.v written while b.mu is not known to be held`
}

//guard:holds b.mu
func (b *Box[T]) setLocked(v T) { b.v = v }

func (b *Box[T]) Swap(v T) T {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.v
	b.setLocked(v)
	return old
}

func (b *Box[T]) badSwap(v T) {
	b.setLocked(v) // want `call to b.setLocked needs b.mu locked`
}

// Unannotated generic lock helpers.
func (b *Box[T]) lock()   { b.mu.Lock() }
func (b *Box[T]) unlock() { b.mu.Unlock() }

func (b *Box[T]) viaHelpers(v T) {
	b.lock()
	b.v = v
	b.unlock()
}

// ---- instantiations ----

func useInt(b *Box[int]) {
	b.mu.Lock()
	b.v++
	b.mu.Unlock()
	b.v-- // want `b.v written while b.mu is not held`
}

func useString(b *Box[string]) string {
	return b.v // want `b.v read while b.mu is not known to be held`
}

func useHelpers(b *Box[[]byte]) {
	b.lock()
	b.v = append(b.v, 'x')
	b.unlock()
}

func useContract(b *Box[int]) {
	b.mu.Lock()
	b.setLocked(1)
	b.mu.Unlock()
	b.setLocked(2) // want `call to b.setLocked needs b.mu locked`
}

func freshBox() *Box[int] {
	b := &Box[int]{}
	b.v = 1
	return b
}

type Pair struct {
	a, b Box[int]
}

func (p *Pair) crossed() {
	p.a.mu.Lock()
	defer p.a.mu.Unlock()
	p.a.v++
	p.b.v++ // want `p.b.v written while p.b.mu is not known to be held`
}

// ---- a generic type with two parameters and an RWMutex ----

type Cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V //guard:by mu
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

func (c *Cache[K, V]) PutUnderRead(k K, v V) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.m[k] = v // want `c.m written while c.mu is read-locked`
}

// ---- generic functions ----

//guard:holds b.mu
func setLockedFn[T any](b *Box[T], v T) { b.v = v }

func lockBox[T any](b *Box[T])   { b.mu.Lock() }
func unlockBox[T any](b *Box[T]) { b.mu.Unlock() }

func readBox[T any](b *Box[T]) T {
	return b.v // want `b.v read while b.mu is not known to be held`
}

func readBoxLocked[T any](b *Box[T]) T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func callGeneric(b *Box[string]) {
	b.mu.Lock()
	setLockedFn(b, "x")
	setLockedFn[string](b, "x")
	b.mu.Unlock()
	setLockedFn(b, "y") // want `call to setLockedFn needs b.mu locked`
}

func callGenericHelpers(b *Box[float64]) {
	lockBox(b)
	b.v = 1
	setLockedFn(b, 2)
	unlockBox(b)
	b.v = 3 // want `b.v written while b.mu is not held`
}

func withLock[T any](b *Box[T], f func(*T)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f(&b.v)
}

func callWithLock(b *Box[int]) {
	withLock(b, func(v *int) { *v = 1 })
}
