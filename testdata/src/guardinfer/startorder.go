package guardinfer

import (
	"context"
	"sync"
)

// StreamReader.start sets ctx under the lock its caller holds, then
// starts run, the one goroutine that reads it: the go statement orders
// the write before every read, and the pair is silent (etcd's
// rafthttp streamReader). Retry is its twin: Reset writes it under the
// lock from any goroutine while run reads it bare, and is reported.
type StreamReader struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	retry  int
}

type Transport struct {
	mu      sync.Mutex
	readers []*StreamReader
}

func (t *Transport) AddPeer() {
	t.mu.Lock()
	defer t.mu.Unlock()
	cr := &StreamReader{}
	t.readers = append(t.readers, cr)
	startReader(cr)
}

func startReader(cr *StreamReader) { cr.start() }

func (cr *StreamReader) start() {
	cr.mu.Lock()
	cr.ctx, cr.cancel = context.WithCancel(context.Background())
	cr.mu.Unlock()
	go cr.run()
}

func (cr *StreamReader) run() {
	for cr.ctx.Err() == nil && cr.retry < 3 { // want `cr.retry is read here with no lock held \(in the goroutine started at startorder.go:\d+\), and written at startorder.go:\d+ with cr.mu held \(in exported StreamReader.Reset\)`
		<-cr.ctx.Done()
	}
}

func (cr *StreamReader) Reset() {
	cr.mu.Lock()
	cr.retry = 0
	cr.mu.Unlock()
}
