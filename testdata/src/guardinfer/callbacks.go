package guardinfer

import "sync"

// A function of the package that only calls its function parameter, in
// place, runs a literal passed to it with the caller's locks, as
// sort.Slice does (decided from its body; a package's fact carries it to
// importers): the literal's accesses are evidence and are checked. One
// that takes a lock itself, or keeps the function, runs it with locks the
// caller cannot see: neither.

type Index struct {
	mu    sync.Mutex
	terms map[string]int // guarded by mu
	docs  []string
}

// eachDoc calls f for every document, before it returns.
func eachDoc(docs []string, f func(string)) {
	for _, d := range docs {
		f(d)
	}
}

// underLock calls f holding its own lock: f's locks are not the caller's.
func underLock(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Add counts the terms of docs under x.mu, in eachDoc's callback: silent.
func (x *Index) Add(docs []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	eachDoc(docs, func(d string) {
		x.terms[d]++
	})
}

// Reset runs its callback through underLock, which holds x.mu: the engine
// does not see that lock, and the callback is not checked. Silent.
func (x *Index) Reset(docs []string) {
	underLock(&x.mu, func() {
		clear(x.terms)
	})
}

// Count reads x.terms in eachDoc's callback with no lock held: reported.
func (x *Index) Count(docs []string) int {
	n := 0
	eachDoc(docs, func(d string) {
		n += x.terms[d] // want `x.terms is documented as guarded by mu`
	})
	return n
}
