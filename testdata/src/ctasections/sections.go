// Package ctasections covers the critical section a helper works in: a
// helper that expects the lock held (//guard:holds) reads and writes in its
// caller's critical section, not in one of its own.
package ctasections

import "sync"

type Frag struct {
	mu   sync.Mutex
	m    map[int]int //guard:by mu
	size int         //guard:by mu
}

// releaseLocked writes in the caller's section.
//
//guard:holds f.mu
func (f *Frag) releaseLocked(k int) { // want releaseLocked:`fieldops\(writes f\.m under held f\.mu, writes f\.size under held f\.mu\)`
	delete(f.m, k)
	f.size--
}

// Check and act in one critical section, the act through the helper.
func (f *Frag) Process(k int) { // want Process:`fieldops\(reads-internally f\.m, rechecks-writes f\.m, writes f\.size\)`
	f.mu.Lock()
	_, ok := f.m[k]
	if !ok {
		f.m[k] = 1
		f.releaseLocked(k)
	}
	f.mu.Unlock()
}

// The same with the lock released between check and act.
func (f *Frag) ProcessSplit(k int) { // want ProcessSplit:`fieldops\(reads-internally f\.m, decides-writes f\.m, writes f\.size\)`
	f.mu.Lock()
	_, ok := f.m[k]
	f.mu.Unlock()
	if !ok {
		f.mu.Lock()
		f.releaseLocked(k) // want `check-then-act: f.m\[k\] was read at line 36 and the lock released; this write, in a later critical section \(.*\), depends on that read`
		f.mu.Unlock()
	}
}

// A helper that expects the lock calls another: both in the caller's
// section.
//
//guard:holds f.mu
func (f *Frag) evictLocked(limit int) { // want evictLocked:`fieldops\(reads-internally f\.size under held f\.mu, writes f\.m under held f\.mu, rechecks-writes f\.size under held f\.mu\)`
	for f.size > limit {
		f.releaseLocked(f.size)
	}
}

func (f *Frag) Add(k, limit int) { // want Add:`fieldops\(writes f\.m, writes f\.size, reads-internally f\.size\)`
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[k] = 1
	f.size++
	if f.size > limit {
		f.evictLocked(limit)
	}
}

// A struct-typed guarded field: reading one part and writing another is
// not acting on what was read.
type queue struct {
	pending  map[int]bool
	capacity int
}

type Listener struct {
	mu sync.Mutex
	q  queue //guard:by mu
}

func (l *Listener) deliver(k int) bool { // want deliver:`fieldops\(writes l\.q\.pending, reads l\.q\.capacity\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.q.pending, k)
	return l.q.capacity != 0
}

func (l *Listener) forget(k int) { // want forget:`fieldops\(writes l\.q\.pending\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.q.pending, k)
}

func (l *Listener) capacity() int { // want capacity:`fieldops\(reads l\.q\.capacity\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.capacity
}

func (l *Listener) setCapacity(n int) { // want setCapacity:`fieldops\(writes l\.q\.capacity\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	l.q.capacity = n
}

func (l *Listener) reset() { // want reset:`fieldops\(writes l\.q\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	l.q = queue{}
}

// The capacity read decides; the pending set is written.
func (l *Listener) Handle(k int) { // want Handle:`fieldops\(writes l\.q\.pending, reads-internally l\.q\.capacity\)`
	if !l.deliver(k) {
		l.forget(k)
	}
}

// The capacity read decides the capacity written.
func (l *Listener) Grow() { // want Grow:`fieldops\(reads-internally l\.q\.capacity, decides-writes l\.q\.capacity\)`
	if l.capacity() == 0 {
		l.setCapacity(8) // want `check-then-act: l.q.capacity was read at line 117 \(in l.capacity\) and the lock released`
	}
}

// ... and the whole queue written overlaps the part read.
func (l *Listener) ResetIfEmpty() { // want ResetIfEmpty:`fieldops\(reads-internally l\.q\.capacity, decides-writes l\.q\)`
	if l.capacity() == 0 {
		l.reset() // want `check-then-act: l.q.capacity was read at line 124 \(in l.capacity\) and the lock released`
	}
}
