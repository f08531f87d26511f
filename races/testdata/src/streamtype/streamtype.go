// Package streamtype: streams, types with io.Reader's Read or io.Writer's
// Write. A stream is for one goroutine at a time unless it says
// otherwise; a stream whose Read writes its own fields holding no lock
// has a lock for something else (here, stopping its read-ahead
// goroutine), and its methods are not entry points that run at once.
// A stream whose Write takes its lock, and one documented as safe for
// concurrent use, are.
package streamtype

import (
	"io"
	"sync"
)

// Reader decompresses ahead of its caller in a goroutine of its own.
type Reader struct {
	mu      sync.Mutex // stops the read-ahead goroutine
	src     io.Reader
	current []byte
	ahead   chan []byte
	stop    chan struct{}
	err     error
}

// Read hands out what the read-ahead goroutine decoded.
func (z *Reader) Read(p []byte) (int, error) {
	if z.ahead == nil {
		z.ahead, z.stop = make(chan []byte), make(chan struct{})
		go readAhead(z.src, z.ahead, z.stop)
	}
	if len(z.current) == 0 {
		b, ok := <-z.ahead
		if !ok {
			z.err = io.EOF // one caller at a time: not reported
			return 0, z.err
		}
		z.current = b
	}
	n := copy(p, z.current)
	z.current = z.current[n:]
	return n, nil
}

// Close stops the read-ahead goroutine.
func (z *Reader) Close() error {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.stop != nil {
		close(z.stop)
		for range z.ahead {
		}
		z.stop, z.ahead = nil, nil
	}
	z.current = nil
	return z.err
}

func readAhead(src io.Reader, out chan<- []byte, stop <-chan struct{}) {
	defer close(out)
	for {
		b := make([]byte, 512)
		n, err := src.Read(b)
		if n > 0 {
			select {
			case out <- b[:n]:
			case <-stop:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Buffer is a stream whose Write takes its lock: its methods run at
// once.
type Buffer struct {
	mu  sync.Mutex
	buf []byte
	n   int
}

// Write appends p under the lock.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf = append(b.buf, p...)
	b.mu.Unlock()
	return len(p), nil
}

// Len reads the buffer with no lock: a race with Write.
func (b *Buffer) Len() int {
	return len(b.buf) // want `Buffer.buf read in Buffer.Len \(exported method: Buffer.Len\) races with its write in Buffer.Write`
}

// Sink counts what it is given. It is safe for concurrent use, as it
// says: its methods run at once although Write writes last with no lock.
type Sink struct {
	mu    sync.Mutex
	total int
	last  int
}

// Write counts p.
func (s *Sink) Write(p []byte) (int, error) {
	s.last = len(p)
	s.mu.Lock()
	s.total += len(p)
	s.mu.Unlock()
	return len(p), nil
}

// Total reads the count with no lock: a race with Write.
func (s *Sink) Total() int {
	return s.total // want `Sink.total read in Sink.Total \(exported method: Sink.Total\) races with its write in Sink.Write`
}
