package guardinfer

import (
	"sync"
	"sync/atomic"
)

// AtomInt32 and AtomCounter are wrapper types in the style of go.uber.org/atomic:
// AtomCounter wraps an AtomInt32, which uses sync/atomic on its value.
type AtomInt32 struct{ value int32 }

func (i *AtomInt32) Load() int32     { return atomic.LoadInt32(&i.value) }
func (i *AtomInt32) Store(v int32)   { atomic.StoreInt32(&i.value, v) }
func (i *AtomInt32) Add(v int32)     { atomic.AddInt32(&i.value, v) }
func (i *AtomInt32) RacyLoad() int32 { return i.value }

type AtomCounter struct{ n AtomInt32 }

func (c *AtomCounter) Inc()       { c.n.Add(1) }
func (c *AtomCounter) Get() int32 { return c.n.Load() }

// Ticker's ticks and last are of wrapper types whose methods use
// sync/atomic (AtomCounter wraps AtomInt32, as go.uber.org/atomic's Bool wraps its
// Uint32): a call of such a method is an atomic access of the field,
// wherever it is. Only RacyLoad, a plain read, mixes the two.
type Ticker struct {
	mu    sync.Mutex
	ticks AtomCounter
	last  AtomInt32
	peak  AtomInt32
	n     int
}

func (t *Ticker) Tick() {
	t.ticks.Inc()
	t.last.Store(1)
	t.peak.Store(2)
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

func (t *Ticker) Count() int32 { return t.ticks.Get() + t.last.Load() + t.peak.Load() }

func (t *Ticker) Racy() int32 {
	return t.last.RacyLoad() // want `t.last is accessed with sync/atomic elsewhere \(e.g. atomicwrapper.go:\d+\) but plainly here`
}

// Store is shared with its goroutine before its constructor sets
// wasEnabled, and its loop reads the head's wrapped range through a
// pointer: both are atomic accesses, as at every other site.
type Store struct {
	mu         sync.Mutex
	wasEnabled AtomInt32
	head       *Head
	n          int
}

type Head struct {
	mu         sync.Mutex
	chunkRange AtomInt32
	series     int
}

func OpenStore(on bool) *Store {
	db := &Store{head: &Head{}}
	go db.run()
	if on {
		db.wasEnabled.Store(1)
	}
	return db
}

func (db *Store) run() {
	for db.wasEnabled.Load() == 0 {
		db.mu.Lock()
		db.n++
		db.mu.Unlock()
		_ = db.head.chunkRange.Load()
	}
}

func (h *Head) SetRange(v int32) {
	h.chunkRange.Store(v)
	h.mu.Lock()
	h.series++
	h.mu.Unlock()
}
