package guardinfer

import (
	"sync"
	"sync/atomic"
)

// A field whose type synchronises itself (atomics or a lock inside) is not
// a candidate: calls of its methods are neither plain nor atomic accesses
// of the field, whatever their bodies do.

type goTracker struct {
	running atomic.Int64
	mu      sync.Mutex
	onDone  map[int]func()
}

func (t *goTracker) Running() int64 { return t.running.Load() }

func (t *goTracker) Go(f func()) {
	t.running.Add(1)
	go t.goAndDecr(f)
}

func (t *goTracker) goAndDecr(f func()) {
	defer t.running.Add(-1)
	f()
	t.mu.Lock()
	for _, g := range t.onDone {
		g()
	}
	t.mu.Unlock()
}

type atomicValue[T any] struct{ v atomic.Value }

func (a *atomicValue[T]) Load() T {
	x, _ := a.v.Load().(T)
	return x
}

func (a *atomicValue[T]) Store(x T) { a.v.Store(x) }

type Backend struct {
	mu      sync.Mutex
	tracker goTracker
	token   atomicValue[string]
	ports   [2]atomicValue[int]
	hits    int64
}

func (b *Backend) Busy() bool { return b.tracker.Running() > 0 }

func (b *Backend) Start() { b.tracker.Go(func() {}) }

func (b *Backend) Token() string { return b.token.Load() }

func (b *Backend) SetToken(s string) {
	b.token.Store(s)
	tokens <- &b.token
}

func (b *Backend) Port(i int) int { return b.ports[i].Load() }

func (b *Backend) Hit() { atomic.AddInt64(&b.hits, 1) }

func (b *Backend) Hits() int64 {
	return b.hits // want `b.hits is accessed with sync/atomic elsewhere`
}

var tokens = make(chan *atomicValue[string], 1)
