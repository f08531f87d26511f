// Command chanpool: a buffered channel kept in a field as a pool of
// encoders (klauspost/compress's zstd Encoder). Each worker takes one
// (enc := <-e.encoders), uses it, and sends it back; EncodeAll does the
// same with a deferred send. Every send gives up an object its sender
// made or took from the pool and does not touch again, so what a receive
// takes is the receiver's alone until it sends it on: the workers and
// EncodeAll's goroutines never share an encoder, and their writes to its
// fields are not reported. A pool whose sender keeps what it sends (in
// Tracked.cur) hands nothing over: a worker's write races with a read
// through the kept pointer.
package main

import "sync"

type encoder struct {
	buf  []byte
	n    int
	last bool
}

func (e *encoder) encode(src []byte) []byte {
	e.buf = append(e.buf[:0], src...)
	e.n += len(src)
	e.last = len(src) == 0
	return e.buf
}

type Encoder struct {
	mu       sync.Mutex
	init     sync.Once
	encoders chan *encoder
	jobs     chan []byte
	out      [][]byte
}

func (e *Encoder) initialize() {
	e.encoders = make(chan *encoder, 4)
	for range 4 {
		e.encoders <- &encoder{}
	}
}

// Start runs the workers.
func (e *Encoder) Start(n int) {
	e.init.Do(e.initialize)
	e.mu.Lock()
	e.jobs = make(chan []byte)
	jobs := e.jobs
	e.mu.Unlock()
	for range n {
		go e.worker(jobs)
	}
}

func (e *Encoder) worker(jobs chan []byte) {
	for job := range jobs {
		enc := <-e.encoders
		out := enc.encode(job)
		e.encoders <- enc
		e.mu.Lock()
		e.out = append(e.out, out)
		e.mu.Unlock()
	}
}

// EncodeAll borrows an encoder for one call.
func (e *Encoder) EncodeAll(src []byte) int {
	e.init.Do(e.initialize)
	enc := <-e.encoders
	defer func() {
		e.encoders <- enc
	}()
	enc.encode(src)
	return enc.n
}

// Tracked keeps the last encoder it put in its pool.
type Tracked struct {
	mu   sync.Mutex
	pool chan *encoder
	cur  *encoder
}

func (t *Tracked) Put(enc *encoder) {
	t.mu.Lock()
	t.cur = enc
	t.mu.Unlock()
	t.pool <- enc
}

func (t *Tracked) Work() {
	for enc := range t.pool {
		enc.n++ // want `encoder.n written in Tracked.Work .* races with its read in Tracked.Peek`
	}
}

func (t *Tracked) Peek() int {
	t.mu.Lock()
	c := t.cur
	t.mu.Unlock()
	return c.n
}

// Filled's channel is also handed to fill, which sends the one encoder
// Shared keeps: the field hands nothing over.
type Filled struct {
	pool chan *encoder
}

var shared = &encoder{}

func fill(ch chan *encoder) {
	for {
		ch <- shared
	}
}

func NewFilled() *Filled {
	ch := make(chan *encoder, 1)
	f := &Filled{pool: ch}
	go fill(ch)
	return f
}

func (f *Filled) Use() {
	enc := <-f.pool
	enc.last = true // want `encoder.last written in Filled.Use .* races with its write in Filled.Use`
}

// Copied sends through a copy of itself (the channel read out of a struct
// value a call returns): that send is not followed, so the field hands
// nothing over.
type Copied struct {
	pool chan *encoder
}

func (c *Copied) snapshot() Copied { return *c }

func (c *Copied) refill() {
	c.snapshot().pool <- shared
}

func (c *Copied) Use() {
	enc := <-c.pool
	enc.buf = nil // want `encoder.buf written in Copied.Use .* races with its write in Copied.Use`
}

func main() {
	e := &Encoder{}
	e.Start(4)
	go e.EncodeAll([]byte("a"))
	go e.EncodeAll([]byte("b"))
	e.jobs <- []byte("c")

	t := &Tracked{pool: make(chan *encoder, 1)}
	go t.Work()
	t.Put(&encoder{})
	go t.Peek()

	f := NewFilled()
	go f.Use()
	go f.Use()

	c := &Copied{pool: make(chan *encoder, 1)}
	go c.refill()
	go c.Use()
	go c.Use()
}
