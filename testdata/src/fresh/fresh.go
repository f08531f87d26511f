// Package fresh covers objects allocated in the current function: their
// fields may be set without locks until the object escapes.
package fresh

import "sync"

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
