// Package construction: set-up a constructor's helpers do on an object
// the constructor has not handed out yet cannot race, though the same
// field is written later under a lock (kafka-go's newMessageSetReader
// reading the first header before the batch it returns is used). A
// write after the object is out is reported.
package construction

import "sync"

type reader struct{ remain int }

// readHeader runs on a reader nobody else has yet.
func (r *reader) readHeader() { r.remain = 10 }

func (r *reader) next() { r.remain-- } // locked: reported at Reset's write

func newReader() *reader {
	r := &reader{}
	r.readHeader()
	return r
}

// Batch is used from many goroutines: its methods lock its mutex.
type Batch struct {
	mu sync.Mutex
	r  *reader
}

func (b *Batch) Open() {
	r := newReader()
	b.mu.Lock()
	b.r = r // locked: reported at Reset's read
	b.mu.Unlock()
}

func (b *Batch) Read() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.r.next()
}

// Reset reads the batch's reader and writes it, handed out already,
// without the lock: against Open's write of the reader and the locked
// next (both reported here, at the accesses that lack the lock). Against
// another Reset it is not reported: two exported methods run at once
// only by assumption, and neither access holds a lock nor is
// reader.remain guarded by a lock of its own type.
func (b *Batch) Reset() {
	b.r.remain = 0 // want `Batch.r read in Batch.Reset \(exported method: Batch.Reset\) races with its write in Batch.Open` `reader.remain written in Batch.Reset \(exported method: Batch.Reset\) races with its write in reader.next`
}
