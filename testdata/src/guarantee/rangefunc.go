package guarantee

import (
	"iter"
	"maps"
	"slices"
)

// ---- range over functions (Go 1.23 iterators) ----

func ints(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func rangeFuncBad(c *C) {
	for i := range ints(3) {
		c.n += i // want `c.n written while c.mu is not known to be held`
	}
}

func rangeFuncGood(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range ints(3) {
		c.n += i
	}
}

func rangeFuncUnlockInBodyBad(c *C) {
	c.mu.Lock()
	for i := range ints(3) {
		c.n += i // want `c.n written while c.mu is held on some paths only`
		c.mu.Unlock()
	}
}

func rangeOverGuardedMapBad(r *RW) int {
	t := 0
	for _, v := range maps.All(r.m) { // want `r.m read while r.mu is not known to be held`
		t += v
	}
	return t
}

func rangeOverGuardedMapGood(r *RW) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t := 0
	for _, v := range maps.All(r.m) {
		t += v
	}
	return t
}

// An iterator over guarded state: the loop body runs inside the iterator,
// but the iterator itself must lock.
func (r *RW) keysBad() iter.Seq[string] {
	return func(yield func(string) bool) {
		for k := range r.m { // want `r.m read while r.mu is not known to be held`
			if !yield(k) {
				return
			}
		}
	}
}

func (r *RW) keysGood() iter.Seq[string] {
	return func(yield func(string) bool) {
		r.mu.RLock()
		ks := slices.Collect(maps.Keys(r.m))
		r.mu.RUnlock()
		for _, k := range ks {
			if !yield(k) {
				return
			}
		}
	}
}

func rangeFuncLiteralBad(c *C) {
	seq := func(yield func(int) bool) {
		yield(c.n) // want `c.n read while c.mu is not known to be held`
	}
	for v := range seq {
		_ = v
	}
}
