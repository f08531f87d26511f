// Package lockmap is the guardedby fixture for maps of per-key locks: an
// entry deleted or replaced while its lock is held lets another goroutine
// create a fresh lock for the same key and run alongside the holder.
package lockmap

import "sync"

type Table struct {
	mu sync.Mutex
	//guard:by mu
	locks map[string]*sync.Mutex
	//guard:by mu
	refs map[string]int
	//guard:by mu
	entries map[string]*entry
}

type entry struct {
	mu   sync.Mutex
	refs int
}

// ---- reported ----

// DeleteWhileHeld is the get-or-create, then the entry dropped before the
// unlock.
func (t *Table) DeleteWhileHeld(id string, work func()) {
	t.mu.Lock()
	l, ok := t.locks[id]
	if !ok {
		l = new(sync.Mutex)
		t.locks[id] = l
	}
	t.mu.Unlock()
	l.Lock()
	work()
	t.mu.Lock()
	delete(t.locks, id) // want `delete\(t.locks, id\) removes the entry while l, the lock taken from t.locks\[id\], is still held: another goroutine can now create a fresh lock for id and run alongside this one; unlock l first, and drop the entry only when no goroutine holds or waits for its lock \(count them under the map's lock\)`
	t.mu.Unlock()
	l.Unlock()
}

// ReplaceWhileHeld resets the entry with a new lock while holding the old.
func (t *Table) ReplaceWhileHeld(id string) {
	t.mu.Lock()
	l := t.locks[id]
	t.mu.Unlock()
	l.Lock()
	defer l.Unlock()
	t.mu.Lock()
	t.locks[id] = new(sync.Mutex) // want `t.locks\[id\] = new\(sync.Mutex\) replaces the entry while l, the lock taken from t.locks\[id\], is still held`
	t.mu.Unlock()
}

// Direct locks the entry in place.
func (t *Table) Direct(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.locks[id].Lock()
	delete(t.locks, id) // want `delete\(t.locks, id\) removes the entry while t.locks\[id\] is still held`
	t.locks[id].Unlock()
}

// lockFor is a helper that returns an entry; its callers' locals come
// from t.locks[id].
func (t *Table) lockFor(id string) *sync.Mutex {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.locks[id]
	if !ok {
		l = new(sync.Mutex)
		t.locks[id] = l
	}
	t.refs[id]++
	return l
}

// ThroughHelper holds the helper's lock and deletes its entry.
func (t *Table) ThroughHelper(id string) {
	l := t.lockFor(id)
	l.Lock()
	defer l.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.locks, id) // want `delete\(t.locks, id\) removes the entry while l, the lock taken from t.locks\[id\], is still held`
}

// Acquire returns a release function that drops the entry before it
// unlocks: the closure unlocks l, which it did not lock, so l is held when
// it starts.
func (t *Table) Acquire(id string) (release func()) {
	l := t.lockFor(id)
	l.Lock()
	return func() {
		t.mu.Lock()
		delete(t.locks, id) // want `delete\(t.locks, id\) removes the entry while l, the lock taken from t.locks\[id\], is still held`
		t.mu.Unlock()
		l.Unlock()
	}
}

// keyLock is a lock and nothing else, like *sync.Mutex.
type keyLock struct {
	sync.RWMutex
}

type RWTable struct {
	mu sync.Mutex
	//guard:by mu
	locks map[int]*keyLock
}

// ReadLocked drops the entry of a constant key while read-locking it.
func (t *RWTable) ReadLocked() {
	t.mu.Lock()
	l := t.locks[7]
	t.mu.Unlock()
	l.RLock()
	defer l.RUnlock()
	t.mu.Lock()
	delete(t.locks, 7) // want `delete\(t.locks, 7\) removes the entry while t.locks\[7\] is still held`
	t.mu.Unlock()
}

// ---- not reported ----

// release is the safe shape (sessionref's): unlock first, then drop the
// entry only when nobody else holds or waits for it.
func (t *Table) release(id string, l *sync.Mutex) {
	l.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refs[id]--
	if t.refs[id] == 0 {
		delete(t.refs, id)
		delete(t.locks, id)
	}
}

// UnlockFirst unlocks before it deletes.
func (t *Table) UnlockFirst(id string) {
	l := t.lockFor(id)
	l.Lock()
	l.Unlock()
	t.mu.Lock()
	delete(t.locks, id)
	t.mu.Unlock()
}

// EntryStruct deletes an entry whose lock it holds, but the entry is more
// than a lock: it marks itself dead under its lock first, and a goroutine
// that locks it later sees the flag and looks the key up again. Not
// reported: entries with other fields than locks are not checked.
func (t *Table) EntryStruct(id string) {
	t.mu.Lock()
	e := t.entries[id]
	t.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.refs = -1 // dead
	t.mu.Lock()
	delete(t.entries, id)
	t.mu.Unlock()
}

// OtherKey deletes another key's entry.
func (t *Table) OtherKey(id, other string) {
	l := t.lockFor(id)
	l.Lock()
	defer l.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.locks, other)
}

// OtherMap holds an entry of one table and deletes from another.
func (t *Table) OtherMap(u *Table, id string) {
	l := t.lockFor(id)
	l.Lock()
	defer l.Unlock()
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.locks, id)
}

// StoreBack puts the held lock back into its own entry.
func (t *Table) StoreBack(id string) {
	l := t.lockFor(id)
	l.Lock()
	defer l.Unlock()
	t.mu.Lock()
	t.locks[id] = l
	t.mu.Unlock()
}

// KeyChanged deletes under a key variable that no longer holds the key
// the lock was taken for.
func (t *Table) KeyChanged(id string) {
	t.mu.Lock()
	l := t.locks[id]
	t.mu.Unlock()
	l.Lock()
	defer l.Unlock()
	id = id + "-old"
	t.mu.Lock()
	delete(t.locks, id)
	t.mu.Unlock()
}

// Counts is a map of plain values: no lock to lose.
func (t *Table) Counts(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.refs, id)
}

// Use keeps the unexported helpers used.
func (t *Table) Use(id string) {
	l := t.lockFor(id)
	l.Lock()
	t.release(id, l)
}
