// Package callbackparam: an exported method that runs a function it is
// passed (bbolt's DB.View(fn)) runs the user's function when the user
// calls it: none of the library's. The literal the library itself hands
// View, in Copy, holding the destination's lock, runs only in that
// context, not in the context of a View the user calls, where no lock is
// held.
package callbackparam

import "sync"

type DB struct {
	mu  sync.Mutex
	n   int
	log []string
}

func (db *DB) View(fn func(int)) {
	db.mu.Lock()
	v := db.n
	db.mu.Unlock()
	fn(v)
}

func (db *DB) Inc() {
	db.mu.Lock()
	db.n++
	db.mu.Unlock()
}

// Copy uses View itself: its literal appends to dst.log holding dst.mu.
func (db *DB) Copy(src *DB) {
	db.mu.Lock()
	src.View(func(v int) {
		db.log = append(db.log, "copied")
	})
	db.mu.Unlock()
}

func (db *DB) Log() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.log
}

// Reset forgets the lock: reported.
func (db *DB) Reset() {
	db.log = nil // want `DB.log written in DB.Reset .* races with its (read|write) in DB.(Log|Copy func literal 1|Reset)`
}
