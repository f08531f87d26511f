// Package main: a producer per partition, made by two kinds of
// goroutines, each with its event loop started on the producer its
// constructor just made. Each loop's batch builder, made for its own
// producer and held in a field that only ever holds what was new, is no
// other loop's: not reported. The statistics all producers are handed
// are one object, and the loops race on it.
package main

import (
	"sync"
	"time"
)

type builder interface {
	add(msg []byte) bool
	flush() []byte
}

type batch struct {
	n    int
	data []byte
}

func newBuilder() builder { return &batch{} }

func (b *batch) add(msg []byte) bool {
	b.n++ // each loop's own batch: silent
	b.data = append(b.data, msg...)
	return b.n < 10
}

func (b *batch) flush() []byte {
	out := b.data
	b.n, b.data = 0, nil
	return out
}

type stats struct {
	sent int
}

type registry struct {
	mu        sync.Mutex
	producers map[int]*producer
}

type producer struct {
	id      int
	builder builder
	stats   *stats
	queue   chan []byte
	reconn  chan struct{}
}

func newProducer(r *registry, id int, s *stats) *producer {
	p := &producer{id: id, stats: s, queue: make(chan []byte, 8), reconn: make(chan struct{}, 1)}
	r.mu.Lock()
	r.producers[id] = p // registered before its builder is made
	r.mu.Unlock()
	p.grab()
	go p.loop()
	return p
}

// grab makes the producer's batch builder, once; a reconnect asks again.
func (p *producer) grab() {
	if p.builder == nil {
		p.builder = newBuilder()
	}
}

func (p *producer) loop() {
	for {
		select {
		case msg := <-p.queue:
			if !p.builder.add(msg) {
				p.send(p.builder.flush())
			}
		case <-p.reconn:
			p.grab()
		}
	}
}

func (p *producer) send(data []byte) {
	p.stats.sent += len(data) // want `stats.sent written in producer.send \(goroutine started in newProducer: producer.loop → producer.send\) races with its write in producer.send`
}

func main() {
	s := &stats{}
	r := &registry{producers: map[int]*producer{}}
	for i := 0; i < 4; i++ {
		go newProducer(r, i, s)
	}
	for i := 4; i < 8; i++ {
		go func() { newProducer(r, i, s) }()
	}
	time.Sleep(time.Millisecond)
	r.mu.Lock()
	for _, p := range r.producers {
		p.queue <- []byte("x")
		p.reconn <- struct{}{}
	}
	r.mu.Unlock()
}
