// Package basic covers plain guarded fields with sync.Mutex and RWMutex.
package basic

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) IncDefer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *Counter) Racy() int {
	return c.n // want `c.n read while c.mu is not known to be held; //guard:by mu needs c.mu read- or write-locked: lock c.mu around this access, or declare //guard:rholds c.mu on Racy if its callers hold it`
}

func (c *Counter) RacyWrite() {
	c.n = 1 // want `c.n written while c.mu is not known to be held`
}

func (c *Counter) AfterUnlock() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.n++ // want `c.n written while c.mu is not held`
}

func (c *Counter) Branch(b bool) {
	if b {
		c.mu.Lock()
	}
	c.n++ // want `c.n written while c.mu is held on some paths only`
	if b {
		c.mu.Unlock()
	}
}

func otherInstance(a, b *Counter) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	b.n++ // want `b.n written while b.mu is not known to be held`
}

func alias(c *Counter) {
	d := c
	d.mu.Lock()
	c.n++
	d.mu.Unlock()
}

type Table struct {
	mu    sync.RWMutex
	m     map[string]int  //guard:by mu
	s     []int           //guard:by mu
	inner struct{ x int } //guard:by mu
}

func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[k]
}

func (t *Table) StoreUnderRead(k string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.m[k] = 1 // want `t.m written while t.mu is read-locked; //guard:by mu needs t.mu locked \(not just read-locked\): use t.mu.Lock instead of RLock for this write`
}

func (t *Table) DeepWritesUnderRead(k string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	delete(t.m, k)       // want `t.m written while t.mu is read-locked`
	t.s[0] = 1           // want `t.s written while t.mu is read-locked`
	t.s = append(t.s, 1) // want `t.s written while t.mu is read-locked`
	t.inner.x = 2        // want `t.inner written while t.mu is read-locked`
	clear(t.m)           // want `t.m written while t.mu is read-locked`
	_ = len(t.s)
}

func (t *Table) Put(k string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[k] = 1
	t.s = append(t.s, 1)
}

var (
	globalMu sync.Mutex
	total    int //guard:by globalMu
)

func addTotal() {
	globalMu.Lock()
	total++
	globalMu.Unlock()
	total-- // want `total written while globalMu is not held`
}

func fresh() *Counter {
	c := &Counter{}
	c.n = 5
	return c
}

func freshEscapes(ch chan *Counter) {
	c := &Counter{}
	c.n = 1
	ch <- c
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}
