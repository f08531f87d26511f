// Package guardinfersuggest is run with -config.infer.suggest: instead of the
// accesses, inference reports the directive to add, at the field or the
// function, with a fix that inserts it.
package guardinfersuggest

import (
	"sync"
	"sync/atomic"
)

// Meter: count is locked at 3 of 4 accesses, below 90%: no suggestion.
// total is locked at 9 of 10: suggested, naming the one bare access.
// peak is locked everywhere: suggested, with nothing for guardedby to report.
type Meter struct {
	mu    sync.Mutex
	total int // want `add //guard:by mu to total: m.mu is held at 9 of 10 accesses \(e.g. suggest.go:\d+\); guardedby will then report the 1 that do not \(first at suggest.go:\d+\)`
	peak  int // want `add //guard:by mu to peak: m.mu is held at 4 of 4 accesses \(e.g. suggest.go:\d+\)$`
	count int
	name  string // written only before publication: no suggestion
}

func NewMeter(name string) *Meter { return &Meter{name: name} }

func (m *Meter) Add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total += n
	m.count++
	if m.total > m.peak {
		m.peak = m.total
	}
}

func (m *Meter) Total() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total
}

func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total, m.peak, m.count = 0, 0, 0
}

func (m *Meter) Sub(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total -= n
}

func (m *Meter) Double() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total *= 2
}

func (m *Meter) Half() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total /= 2
}

func (m *Meter) Avg(n int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total / n
}

func (m *Meter) Peak() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

func (m *Meter) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

func (m *Meter) Racy() (int, int, string) {
	return m.total, m.count, m.name // the accesses themselves are not reported under -suggest
}

// Link: a prose guard becomes a suggestion, with the comment as evidence.
type Link struct {
	mu    sync.Mutex
	state string // guarded by mu // want `add //guard:by mu to state: its comment says "guarded by mu" at suggest.go:\d+; l.mu is held at 1 of 2 accesses; guardedby will then report the 1 that do not \(first at suggest.go:\d+\)`
}

func (l *Link) Up() {
	l.mu.Lock()
	l.state = "up"
	l.mu.Unlock()
}

func (l *Link) State() string { return l.state }

// Stats: hits mixes atomic and plain accesses; under -suggest the atomic
// check does not run, and no lock is ever held: nothing to suggest.
type Stats struct {
	mu   sync.Mutex
	hits uint64
}

func (s *Stats) Hit()         { atomic.AddUint64(&s.hits, 1) }
func (s *Stats) Hits() uint64 { return s.hits }

// Conn: the ...Locked convention and doc-stated contracts become
// //guard:holds (rholds for an RWMutex) suggestions at the function.
type Conn struct {
	mu  sync.Mutex
	buf []byte
}

func (c *Conn) flushLocked() { // want `add //guard:holds c.mu to flushLocked: its name says the caller holds c.mu; 1 of 2 calls in this package do`
	c.buf = nil
}

// grow extends the buffer. Caller must hold c.mu.
func (c *Conn) grow(n int) { // want `add //guard:holds c.mu to grow: its doc comment says the caller holds c.mu; 1 of 1 calls in this package do`
	c.buf = append(c.buf, make([]byte, n)...)
}

func (c *Conn) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.grow(1)
	c.flushLocked()
}

func (c *Conn) Close() {
	c.mu.Lock()
	c.mu.Unlock()
	c.flushLocked()
}

type Index struct {
	mu sync.RWMutex
	m  map[string]int
}

func (x *Index) getLocked(k string) int { return x.m[k] } // want `add //guard:rholds x.mu to getLocked: its name says the caller holds x.mu; 1 of 1 calls in this package do`

func (x *Index) Get(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.getLocked(k)
}
