// Command mergecell: a drain loop merges batches into a new batch a
// helper makes, held in a named result its function literal uses (so it
// lives in a variable's cell), sets the new batch's stream, then
// publishes it under the buffer's lock (franz-go's mergeSpan). The new
// batch is the merge's own until then: what it writes before is not
// reported. Retag writes the stream of a batch already in the buffer,
// which every goroutine reaches, without the lock: that is.
package main

import (
	"sync"
	"time"
)

type stream struct{ blob []byte }

type batch struct {
	stream *stream
	n      int
}

func newBatch(n int) *batch { return &batch{n: n} }

type buffer struct {
	mu      sync.Mutex
	batches []*batch
}

// merge makes one batch of srcs.
func (b *buffer) merge(srcs []*batch) (m *batch, ok bool) {
	m = newBatch(0)
	m.stream = &stream{}
	add := func(s *batch) bool {
		m.n += s.n
		return m.n < 100
	}
	for _, s := range srcs {
		if !add(s) {
			return m, false
		}
		m.stream.blob = append(m.stream.blob, byte(s.n))
	}
	return m, true
}

func (b *buffer) drain() {
	for {
		m, ok := b.merge([]*batch{newBatch(1), newBatch(2)})
		if !ok {
			continue
		}
		b.mu.Lock()
		b.batches = append(b.batches, m)
		b.mu.Unlock()
	}
}

func (b *buffer) release() {
	b.mu.Lock()
	for _, x := range b.batches {
		x.stream = nil
	}
	b.mu.Unlock()
}

// retag gives the first batch a new stream, with no lock.
func (b *buffer) retag() {
	b.mu.Lock()
	first := b.batches[0]
	b.mu.Unlock()
	first.stream = &stream{} // want `batch.stream written in buffer.retag .* races with its (read|write) in`
}

func main() {
	b := &buffer{}
	go b.drain()
	go func() {
		for {
			b.release()
			time.Sleep(time.Millisecond)
		}
	}()
	go b.retag()
	time.Sleep(time.Second)
}
