package guardinfer

import "sync"

// Deep mutation is a write: a field that is never reassigned after
// construction, but whose pointee is written under the lock, holds state
// the lock guards.

type stats struct {
	hits, misses int
}

// Meter's st is set once, in NewMeter; every method but Peek writes
// through it with m.mu held (st.hits++ is a write of m.st's state).
type Meter struct {
	mu sync.Mutex
	// guarded by mu
	st *stats
}

func NewMeter() *Meter { return &Meter{st: &stats{}} }

func (m *Meter) Hit() {
	m.mu.Lock()
	m.st.hits++
	m.mu.Unlock()
}

func (m *Meter) Miss() {
	m.mu.Lock()
	m.st.misses++
	m.mu.Unlock()
}

func (m *Meter) Reset() {
	m.mu.Lock()
	*m.st = stats{}
	m.mu.Unlock()
}

func (m *Meter) Peek() int {
	return m.st.hits // want `m.st is documented as guarded by mu`
}

// Logger's out is set once and only read, also through method calls,
// which guardvet does not count as writes (a logger's would not be): with
// no write, there is nothing to race with: silent.
type sink struct{ lines []string }

func (s *sink) Len() int { return len(s.lines) }

type Logger struct {
	mu sync.Mutex
	// guarded by mu
	out *sink
}

func (l *Logger) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.Len()
}

func (l *Logger) Peek() int { return l.out.Len() }

// A mutex hat that names a field of a pointee ("guards tr.live") guards
// that field, not tr: tr itself, set once and read bare, is silent.
type trace struct{ live bool }

type Call struct {
	mu sync.Mutex // guards tr.live
	tr *trace
}

func (c *Call) End() {
	c.mu.Lock()
	c.tr.live = false
	c.mu.Unlock()
}

func (c *Call) Traced() bool { return c.tr != nil }
