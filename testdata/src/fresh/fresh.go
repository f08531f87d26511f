// Package fresh covers objects allocated in the current function: their
// fields may be set without locks until the object escapes.
package fresh

import (
	"sync"

	"fresh/frag"
)

type W struct {
	mu sync.Mutex
	r  *Runner //guard:by mu
	n  int     //guard:by mu
}

type Runner struct{ w *W }

// Build hands w to a goroutine: after Build(w), w is shared.
func Build(w *W) *Runner {
	r := &Runner{w: w}
	go func() {
		w.mu.Lock()
		w.n++
		w.mu.Unlock()
	}()
	return r
}

// initDefaults only touches w under its lock-free construction phase; it
// does not publish w, so a fresh w stays fresh across the call.
func initDefaults(w *W) {
	w.n = 10 // want `w.n written while w.mu is not known to be held`
}

func New() *W {
	w := &W{}
	w.n = 1 // fresh: nobody else can see w yet
	initDefaults(w)
	w.n = 2        // still fresh: initDefaults does not publish w
	w.r = Build(w) // want `w.r written while w.mu is not known to be held`
	return w
}

func NewVar() W {
	var w W
	w.n = 3
	return w
}

func NewNew() *W {
	w := new(W)
	w.n = 4
	ch := make(chan *W, 1)
	ch <- w
	w.n = 5 // want `w.n written while w.mu is not known to be held`
	return w
}

var registry []*W

func Register() {
	w := &W{}
	w.n = 1
	registry = append(registry, w)
	w.n = 2 // want `w.n written while w.mu is not known to be held`
}

func Captured() {
	w := &W{}
	go func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.n++
	}()
	w.n = 9 // want `w.n written while w.mu is not known to be held`
}

func Reassigned(old *W) {
	w := &W{}
	w.n = 1
	w = old
	w.n = 2 // want `w.n written while w.mu is not known to be held`
}

func LockedMethodKeepsFresh() *W {
	w := &W{}
	w.mu.Lock() // locking its own mutex does not publish it
	w.mu.Unlock()
	w.n = 1
	return w
}

type Inner struct {
	cfg int
}

type Nested struct {
	mu    sync.Mutex
	inner Inner //guard:by mu
	n     int   //guard:by mu
}

// NewNested writes through a nested path of a new object.
func NewNested(c int) *Nested {
	s := &Nested{}
	s.inner.cfg = c
	return s
}

type Proto struct {
	mu   sync.Mutex
	frag *frag.Frag  //guard:by mu
	eps  map[int]int //guard:by mu
}

func (p *Proto) Timeout() {}

// NewProto hands p to a constructor that keeps it only in the new Frag,
// which is stored back in p: p is still unpublished.
func NewProto() *Proto {
	p := &Proto{}
	p.frag = frag.New(1, p)
	p.eps = map[int]int{}
	return p
}

// NewProtoLocal keeps the new Frag in a local first.
func NewProtoLocal() *Proto {
	p := &Proto{}
	f := frag.New(1, p)
	p.eps = map[int]int{}
	p.frag = f
	return p
}

var lastFrag *frag.Frag

// NewProtoLeak publishes the Frag, and p with it.
func NewProtoLeak() *Proto {
	p := &Proto{}
	f := frag.New(1, p)
	lastFrag = f
	p.eps = map[int]int{} // want `p.eps written while p.mu is not known to be held`
	return p
}

// NewProtoRegistered hands p to a constructor that publishes it.
func NewProtoRegistered() *Proto {
	p := &Proto{}
	p.frag = frag.Register(p) // want `p.frag written while p.mu is not known to be held`
	p.eps = map[int]int{}     // want `p.eps written while p.mu is not known to be held`
	return p
}

type Entry struct {
	mu   sync.Mutex
	kind int //guard:by mu
}

type Table struct {
	mu      sync.Mutex
	entries map[string]*Entry //guard:by mu
}

// addLocked stores a new entry in the table under the table's lock, then
// sets it up: nobody can reach it before t.mu is released.
//
//guard:holds t.mu
func (t *Table) addLocked(k string) *Entry {
	e := &Entry{}
	t.entries[k] = e
	e.kind = 1
	return e
}

// add sets the entry up after releasing the table's lock: too late.
func (t *Table) add(k string) {
	e := &Entry{}
	t.mu.Lock()
	t.entries[k] = e
	e.kind = 1
	t.mu.Unlock()
	e.kind = 2 // want `e.kind written while e.mu is not known to be held`
}

// addUnlocked stores it without the table's lock: published at once.
func (t *Table) addUnlocked(k string) {
	e := &Entry{}
	t.entries[k] = e // want `t.entries written while t.mu is not known to be held`
	e.kind = 1       // want `e.kind written while e.mu is not known to be held`
}

// useAdded: what addLocked returns is in the table, not new.
func (t *Table) useAdded(k string) {
	t.mu.Lock()
	e := t.addLocked(k)
	t.mu.Unlock()
	e.kind = 3 // want `e.kind written while e.mu is not known to be held`
}

var handlers []func() int

// watch only reads through w, but keeps it in a closure others run.
func watch(w *W) {
	handlers = append(handlers, func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.n
	})
}

// NewWatched: after watch(w), w is shared.
func NewWatched() *W {
	w := &W{}
	w.n = 1
	watch(w)
	w.n = 2 // want `w.n written while w.mu is not known to be held`
	return w
}

// watchVia hands w on to watch.
func watchVia(w *W) { watch(w) }

// NewWatchedVia: after watchVia(w), w is shared too.
func NewWatchedVia() *W {
	w := &W{}
	w.n = 1
	watchVia(w)
	w.n = 2 // want `w.n written while w.mu is not known to be held`
	return w
}
