package main

// Goroutines started through a helper that recovers and runs the
// function it is handed (sarama's go withRecover(b.responseReceiver)):
// each go statement's goroutine runs what that statement hands it, not
// every function the program hands the helper. Only drain's goroutines
// write the queue's count; producer's writes its own buffer, which
// nobody else touches.

type queue struct{ count int }

func (q *queue) drain() { q.count = 0 } // want `queue.count written in queue.drain \(goroutine started in startAll: withRecover → queue.drain\) races with its write in queue.drain`

type producer struct{ buf []int }

func (p *producer) run() { p.buf = append(p.buf, 1) }

func withRecover(fn func()) {
	defer func() { _ = recover() }()
	fn()
}

var q = &queue{}

func startAll() {
	p := &producer{}
	go withRecover(p.run)
	go withRecover(q.drain)
	go withRecover(q.drain)
}
