// Package main: a constructor, called by the server's own loop and by
// recovery goroutines, makes a store, hands it to a shared manager's
// close callbacks, trims what it recovered, and only then starts the
// store's background goroutine with it. Each call makes its own store
// and starts its own goroutine, so the trimming is not concurrent with
// the goroutine that has its store, whichever call first reached the go
// statement. A constructor that starts the goroutine first and trims
// after is reported.
package main

import (
	"sync"
	"time"
)

type manager struct {
	mu  sync.Mutex
	cbs []func()
}

func (m *manager) register(f func()) {
	m.mu.Lock()
	m.cbs = append(m.cbs, f)
	m.mu.Unlock()
}

func (m *manager) closeAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.cbs {
		f()
	}
}

type store struct {
	mu     sync.Mutex
	closed bool
	first  int
	last   int
}

func (s *store) onClose() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

func (s *store) trim() {
	s.first++ // before the store's goroutine is started: silent
}

func (s *store) trimLast() {
	s.last++ // want `store.last written in store.trimLast \(.*newLateStore → store.trimLast\) races with its read in store.background`
}

func (s *store) background() {
	time.Sleep(time.Millisecond)
	println(s.first, s.last)
}

func newStore(m *manager, recovered bool) *store {
	s := &store{}
	m.register(s.onClose)
	if recovered {
		s.trim()
	}
	go s.background()
	return s
}

func newLateStore(m *manager, recovered bool) *store {
	s := &store{}
	m.register(s.onClose)
	go s.background()
	if recovered {
		s.trimLast()
	}
	return s
}

func main() {
	m := &manager{}
	stores := []*store{newStore(m, false), newLateStore(m, false)}
	var wg sync.WaitGroup
	ch := make(chan *store, 2)
	wg.Add(1)
	go func() {
		defer wg.Done()
		ch <- newStore(m, true)
		ch <- newLateStore(m, true)
	}()
	wg.Wait()
	close(ch)
	for s := range ch {
		stores = append(stores, s)
	}
	go m.closeAll()
	println(len(stores))
}
