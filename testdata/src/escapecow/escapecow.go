// Package escapecow covers guarded slices and maps handed out after the
// lock is released whose owner never changes them in place (copy-on-write:
// every write replaces the whole value), and nil or empty values returned:
// nothing shared can change, so nothing is reported by default. Each has a
// twin that writes in place and stays reported. escapecowstrict checks the
// same code under -config.strict, where the silent ones are reported too.
package escapecow

import (
	"slices"
	"sort"
	"sync"
)

type Dir struct {
	mu      sync.Mutex
	entries []string       //guard:by mu
	names   map[string]int //guard:by mu
}

// Entries hands out the slice: it is only ever replaced (Refresh, Reset).
func (d *Dir) Entries() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.entries
}

// Names hands out the map: it is only ever replaced by a new one.
func (d *Dir) Names() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.names
}

func (d *Dir) Refresh(list []string) {
	fresh := slices.Clone(list)
	m := make(map[string]int, len(fresh))
	for i, n := range fresh {
		m[n] = i
	}
	d.mu.Lock()
	d.entries = fresh
	d.names = m
	d.mu.Unlock()
}

func (d *Dir) Reset() {
	d.mu.Lock()
	d.entries = nil
	d.names = map[string]int{}
	d.mu.Unlock()
}

// Snapshot copies the slice and uses it after the lock is released.
func (d *Dir) Snapshot() int {
	d.mu.Lock()
	e := d.entries
	d.mu.Unlock()
	return len(e)
}

// Cached builds the list when it is not there yet: the local it appends
// to is nil on that path (the fast path returned otherwise), so the
// appends fill a new array, stored back whole.
func (d *Dir) Cached(src []string) []string {
	d.mu.Lock()
	list := d.entries
	d.mu.Unlock()
	if list != nil {
		return list
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries != nil {
		return d.entries
	}
	for _, s := range src {
		list = append(list, s)
	}
	d.entries = list
	return list
}

type Log struct {
	mu      sync.Mutex
	lines   []string       //guard:by mu
	counts  map[string]int //guard:by mu
	sorted  []int          //guard:by mu
	pending []int          //guard:by mu
	marks   []bool         //guard:by mu
}

// Add appends to lines in place: the spare capacity the handed-out copies
// share is written, and so is what a caller appends to its copy.
func (l *Log) Add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.counts[s]++
	l.sorted = append([]int(nil), l.sorted...)
	sort.Ints(l.sorted)
	l.marks[0] = true
	l.mu.Unlock()
}

func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines // want `returns l.lines, the guarded slice itself`
}

// Counts: the map's elements are written in place (l.counts[s]++).
func (l *Log) Counts() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counts // want `returns l.counts, the guarded map itself`
}

// Sorted: sorted in place after it is stored.
func (l *Log) Sorted() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sorted // want `returns l.sorted, the guarded slice itself`
}

// Marks: an element is written in place.
func (l *Log) Marks() []bool {
	l.mu.Lock()
	m := l.marks // want `m keeps a reference into guarded l.marks that is used at line 130 after l.mu is released`
	l.mu.Unlock()
	return m
}

// Pending returns the field where it is nil: nothing is shared. Where it
// is empty it may still have the field's spare capacity, and where it has
// elements it is handed out: both reported (it is cleared in place in
// Drop).
func (l *Log) Pending() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		return l.pending
	}
	if len(l.pending) == 0 {
		return l.pending // want `returns l.pending, the guarded slice itself`
	}
	if len(l.pending) > 0 {
		return l.pending // want `returns l.pending, the guarded slice itself`
	}
	return nil
}

func (l *Log) Drop() {
	l.mu.Lock()
	clear(l.pending)
	l.mu.Unlock()
}

// Refill appends to a local copy that is not known empty: the appends can
// write the field's spare capacity.
func (l *Log) Refill(more []int) []int {
	l.mu.Lock()
	p := l.pending // want `p keeps a reference into guarded l.pending that is used at line 164 after l.mu is released`
	l.mu.Unlock()
	p = append(p, more...)
	return p
}
