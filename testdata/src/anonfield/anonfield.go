// Package anonfield covers directives on the fields of anonymous struct
// types: a package-level variable of one (gVisor's hostinet
// restoredListeners), a local, and an element type. The lock path is
// relative to the struct, as for a named struct's field.
package anonfield

import "sync"

var restoredListeners struct {
	mu sync.Mutex

	// +checklocks:mu
	sockets []int
}

func afterLoad(fd int) {
	restoredListeners.mu.Lock()
	defer restoredListeners.mu.Unlock()
	restoredListeners.sockets = append(restoredListeners.sockets, fd)
}

func count() int {
	return len(restoredListeners.sockets) // want `restoredListeners.sockets read while restoredListeners.mu is not known to be held`
}

var registry = []struct {
	mu   sync.Mutex
	refs int //guard:by mu
}{{}, {}}

func bump(i int) {
	registry[i].mu.Lock()
	registry[i].refs++
	registry[i].mu.Unlock()
	registry[i].refs-- // want `registry\[i\].refs written while registry\[i\].mu is not held`
}

func local() int {
	var s struct {
		mu sync.Mutex
		n  int //guard:by mu
	}
	s.mu.Lock()
	s.n = 1
	s.mu.Unlock()
	go func() {
		s.n++ // want `s.n written while s.mu is not known to be held`
	}()
	return 0
}
