package guardinfer

import "sync"

// The lock of the parent object: a field of a lock-free struct that the
// package always reaches through a field of an object holding a lock, and
// touches under that object's lock, is guarded by it. No directive can say
// so on the field (its struct cannot name another type's lock), so the
// finding has no fix to apply: lock the parent, or explain.

type uplinkStats struct {
	sent  int
	drops int
	name  string
}

type Uplink struct {
	mu    sync.Mutex
	stats *uplinkStats
	peers int
}

func NewUplink() *Uplink { return &Uplink{stats: &uplinkStats{}} }

func (l *Uplink) Send() {
	l.mu.Lock()
	l.stats.sent++
	l.peers++
	l.mu.Unlock()
}

func (l *Uplink) Drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stats.drops++
	l.stats.sent--
}

func (l *Uplink) Reset() {
	l.mu.Lock()
	l.stats.sent = 0
	l.stats.drops = 0
	l.mu.Unlock()
}

func (l *Uplink) Sent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats.sent
}

func (l *Uplink) Add(n int) {
	l.mu.Lock()
	if l.stats.sent+n > l.stats.sent {
		l.stats.sent += n
	}
	l.mu.Unlock()
}

func (l *Uplink) Snapshot() (sent, drops int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stats.sent < 0 {
		return 0, l.stats.drops
	}
	return l.stats.sent, l.stats.drops
}

// Racy reads sent without l.mu, which every other access holds.
func (l *Uplink) Racy() int {
	return l.stats.sent // want `l.stats.sent is accessed with l.mu held at 9 of 10 sites \(e.g. parent.go:\d+\); here it is not: lock l.mu here`
}

// name is set once and only read: silent. drops is read unlocked once
// more, but its evidence (two writes in two functions) scores too low.
func (l *Uplink) Name() string { return l.stats.name + string(rune(l.stats.drops)) }

// A lock-free struct reached through two parents under their own locks:
// no single lock guards its field, nothing is inferred.
type counter struct{ n int }

type meterA struct {
	mu sync.Mutex
	c  counter
}

type meterB struct {
	mu sync.Mutex
	c  counter
}

func (m *meterA) inc()     { m.mu.Lock(); m.c.n++; m.mu.Unlock() }
func (m *meterA) add()     { m.mu.Lock(); m.c.n += 2; m.mu.Unlock() }
func (m *meterA) set()     { m.mu.Lock(); m.c.n = 0; m.mu.Unlock() }
func (m *meterB) inc()     { m.mu.Lock(); m.c.n++; m.mu.Unlock() }
func (m *meterB) add()     { m.mu.Lock(); m.c.n += 2; m.mu.Unlock() }
func (m *meterB) get() int { return m.c.n }
