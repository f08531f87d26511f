// Package escapesnap covers references into guarded slices and maps that
// are safe to use after the lock is released: the critical section gave
// the field a new value (the local owns the old one), the backing array is
// never written in place (copy-on-write, append-only), or the elements
// carry their own lock. Each has a counterpart that shares and is reported.
package escapesnap

import "sync"

type Notifier struct {
	mu sync.Mutex
	ch []chan struct{} //guard:by mu
	m  map[int]bool    //guard:by mu
}

// Clear writes an element in place, so a snapshot of n.ch is shared.
func (n *Notifier) Clear(i int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ch[i] = nil
	n.m[i] = false
}

// Take ownership: the field gets a new value in the same critical section,
// so the local holds the only reference to the old one.
func (n *Notifier) Wait() {
	n.mu.Lock()
	ch := n.ch
	n.ch = nil
	n.mu.Unlock()
	for _, c := range ch {
		<-c
	}
}

func (n *Notifier) DrainMap() int {
	n.mu.Lock()
	m := n.m
	n.m = map[int]bool{}
	n.mu.Unlock()
	return len(m)
}

// Overwritten on one path only: on the other the snapshot is shared.
func (n *Notifier) WaitSometimes(reset bool) {
	n.mu.Lock()
	ch := n.ch // want `ch keeps a reference into guarded n.ch that is used at line 52 after n.mu is released`
	if reset {
		n.ch = nil
	}
	n.mu.Unlock()
	for _, c := range ch {
		<-c
	}
}

// Truncated, not replaced: the backing array stays the field's.
func (n *Notifier) WaitReuse() {
	n.mu.Lock()
	ch := n.ch // want `ch keeps a reference into guarded n.ch that is used at line 63 after n.mu is released`
	n.ch = n.ch[:0]
	n.mu.Unlock()
	for _, c := range ch {
		<-c
	}
}

// The map is replaced only after the lock is released: shared meanwhile.
func (n *Notifier) DrainLate() int {
	n.mu.Lock()
	m := n.m // want `m keeps a reference into guarded n.m that is used at line 73 after n.mu is released`
	n.mu.Unlock()
	k := len(m)
	n.mu.Lock()
	n.m = nil
	n.mu.Unlock()
	return k
}

type Handle struct{ fire func() }

// Queue is copy-on-write: notify is only appended to or replaced by a new
// slice, never written in place, so a snapshot's elements never change.
type Queue struct {
	mu     sync.RWMutex
	notify []*Handle //guard:by mu
}

func NewQueue(hs ...*Handle) *Queue {
	return &Queue{notify: hs}
}

func (q *Queue) Add(h *Handle) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.notify = append(q.notify, h)
}

func (q *Queue) Remove(h *Handle) {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]*Handle, 0, len(q.notify))
	for _, x := range q.notify {
		if x != h {
			out = append(out, x)
		}
	}
	q.notify = out
}

func (q *Queue) Notify() {
	q.mu.RLock()
	notify := q.notify
	q.mu.RUnlock()
	for _, h := range notify {
		h.fire()
	}
}

// The snapshot's holder writes it in place: shared.
type Once struct {
	mu     sync.RWMutex
	notify []*Handle //guard:by mu
}

func (q *Once) Add(h *Handle) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.notify = append(q.notify, h)
}

func (q *Once) Notify() {
	q.mu.RLock()
	notify := q.notify // want `notify keeps a reference into guarded q.notify that is used at line 136 after q.mu is released`
	q.mu.RUnlock()
	for i, h := range notify {
		h.fire()
		notify[i] = nil
	}
}

// InPlace removes by swapping with the last element: a snapshot sees that.
type InPlace struct {
	mu sync.Mutex
	hs []*Handle //guard:by mu
}

func (q *InPlace) Add(h *Handle) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hs = append(q.hs, h)
}

func (q *InPlace) Remove(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hs[i] = q.hs[len(q.hs)-1]
	q.hs = q.hs[:len(q.hs)-1]
}

func (q *InPlace) Notify() {
	q.mu.Lock()
	hs := q.hs // want `hs keeps a reference into guarded q.hs that is used at line 165 after q.mu is released`
	q.mu.Unlock()
	for _, h := range hs {
		h.fire()
	}
}

// Truncate empties the slice but keeps its backing array, which the next
// append overwrites under a snapshot.
type Truncated struct {
	mu sync.Mutex
	hs []*Handle //guard:by mu
}

func (q *Truncated) Add(h *Handle) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hs = append(q.hs, h)
}

func (q *Truncated) Reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hs = q.hs[:0]
}

func (q *Truncated) Notify() {
	q.mu.Lock()
	hs := q.hs // want `hs keeps a reference into guarded q.hs that is used at line 193 after q.mu is released`
	q.mu.Unlock()
	for _, h := range hs {
		h.fire()
	}
}

// bucket carries its own lock: the table's lock covers the slice of
// buckets, not their contents.
type bucket struct {
	mu    sync.Mutex
	items []int //guard:by mu
}

type Table struct {
	mu      sync.RWMutex
	buckets []bucket //guard:by mu
}

func (t *Table) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buckets = make([]bucket, 16)
}

func (t *Table) Insert(k int) {
	t.mu.RLock()
	buckets := t.buckets
	t.mu.RUnlock()
	b := &buckets[k%len(buckets)]
	b.mu.Lock()
	b.items = append(b.items, k)
	b.mu.Unlock()
}

// cell has no lock of its own: the table's lock covers its contents.
type cell struct{ n int }

type Cells struct {
	mu    sync.Mutex
	cells []cell //guard:by mu
}

func (c *Cells) Bump(i int) {
	c.mu.Lock()
	cells := c.cells // want `cells keeps a reference into guarded c.cells that is used at line 238 after c.mu is released`
	c.mu.Unlock()
	cells[i].n++
}

// Appending to a copy writes inside the field's length once the field has
// grown: the copy shares.
type Grow struct {
	mu sync.Mutex
	xs []int //guard:by mu
}

func (g *Grow) Add(x int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.xs = append(g.xs, x)
}

func (g *Grow) Extended(x int) int {
	g.mu.Lock()
	xs := g.xs // want `xs keeps a reference into guarded g.xs that is used at line 258 after g.mu is released`
	g.mu.Unlock()
	xs = append(xs, x)
	return len(xs)
}
