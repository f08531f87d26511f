package guardinfer

import "sync"

// Lock sets: a read that misses the field's guard but holds another lock
// that every write of the field holds too cannot race with any of them.

// Lessor: every write of expiry holds mu and expiryMu; readers that hold
// mu alone are excluded from the writers by mu, readers that hold
// expiryMu alone by expiryMu.
type Lessor struct {
	mu       sync.RWMutex
	expiryMu sync.Mutex // protects concurrent accesses to expiry
	expiry   int
}

func (l *Lessor) Refresh(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expiryMu.Lock()
	l.expiry = v
	l.expiryMu.Unlock()
}

func (l *Lessor) Revoke() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expiryMu.Lock()
	l.expiry = 0
	l.expiryMu.Unlock()
}

func (l *Lessor) Remaining() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.expiry // silent: every writer holds mu exclusively
}

func (l *Lessor) Expiry() int {
	l.expiryMu.Lock()
	defer l.expiryMu.Unlock()
	return l.expiry
}

// Lease is Lessor's twin with a writer that takes expiryMu alone: a reader
// under mu alone now races with it.
type Lease struct {
	mu       sync.RWMutex
	expiryMu sync.Mutex // protects concurrent accesses to expiry
	expiry   int
}

func (l *Lease) Refresh(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expiryMu.Lock()
	l.expiry = v
	l.expiryMu.Unlock()
}

func (l *Lease) Touch() {
	l.expiryMu.Lock()
	l.expiry++
	l.expiryMu.Unlock()
}

func (l *Lease) Remaining() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.expiry // want `l.expiry is documented as guarded by expiryMu`
}

// Snapshot: writes hold mu only for reading, so a reader under mu.RLock
// is not excluded from them by mu; with expiryMu missing it is reported.
type Snapshot struct {
	mu       sync.RWMutex
	expiryMu sync.Mutex // protects concurrent accesses to expiry
	expiry   int
}

func (s *Snapshot) Refresh(v int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.expiryMu.Lock()
	s.expiry = v
	s.expiryMu.Unlock()
}

func (s *Snapshot) Remaining() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.expiry // want `s.expiry is documented as guarded by expiryMu`
}

// Leases reaches its entries through a map, not a field path: a lease's
// expiry is written holding the registry's mu and the entry's expiryMu,
// and read by Ttl under the registry's mu alone. The registry's lock is
// the same at both (a lock of a Leases, as RacerD abstracts by class).
type Leases struct {
	mu sync.RWMutex
	m  map[int]*Entry
}

type Entry struct {
	expiryMu sync.Mutex // protects concurrent accesses to expiry
	expiry   int
}

func (ls *Leases) Renew(id, v int) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	e := ls.m[id]
	e.expiryMu.Lock()
	e.expiry = v
	e.expiryMu.Unlock()
}

func (ls *Leases) Ttl(id int) int {
	ls.mu.RLock()
	defer ls.mu.RUnlock()
	return ls.m[id].expiry // silent: every writer holds ls.mu exclusively
}
