package library

import "sync"

// etcd's backend transaction: Lock and Unlock are helpers that take and
// release the transaction's own mutex, so Put holds it as Pending does;
// Reset, whose helper releases the lock before it returns, holds none.

type Tx struct {
	mu      sync.Mutex
	pending int
}

func (t *Tx) Lock()   { t.mu.Lock() }
func (t *Tx) Unlock() { t.mu.Unlock() }

func (t *Tx) Put() {
	t.Lock()
	t.pending++ // locked: reported at Reset's write, which races with every locked access
	t.Unlock()
}

func (t *Tx) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pending
}

// WithLock runs f with the lock held and releases it on return (a
// deferred release: a net effect of none on its callers).
func (t *Tx) WithLock(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f()
}

func (t *Tx) Reset() {
	t.WithLock(func() {})
	t.pending = 0 // want `Tx.pending written in Tx.Reset .* races with its write in Tx.Put .*\(and 2 more accesses\).*the write holds none`
}
