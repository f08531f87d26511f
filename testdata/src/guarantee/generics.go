package guarantee

import "sync"

// ---- generics ----

type Box[T any] struct {
	mu sync.Mutex
	v  T //guard:by mu
}

//guard:holds b.mu
func (b *Box[T]) setLocked(v T) { b.v = v }

func (b *Box[T]) getBad() T {
	return b.v // want `b.v read while b.mu is not known to be held`
}

func (b *Box[T]) getGood() T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func genericFuncBad[T any](b *Box[T], v T) {
	b.v = v // want `b.v written while b.mu is not known to be held`
}

func genericFuncGood[T any](b *Box[T], v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

func genericContractBad[T comparable](b *Box[T], v T) {
	b.setLocked(v) // want `call to b.setLocked needs b.mu locked`
}

func instantiatedBad(b *Box[[]int]) {
	b.v = append(b.v, 1) // want `b.v read while b.mu is not known to be held` `b.v written while b.mu is not known to be held`
}

func instantiatedGood(b *Box[[]int]) {
	b.mu.Lock()
	b.setLocked(append(b.v, 1))
	b.mu.Unlock()
}

type Pair[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V //guard:by mu
}

func (p *Pair[K, V]) putUnderRead(k K, v V) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.m[k] = v // want `p.m written while p.mu is read-locked`
}
