// Package txlock is a database whose transactions hold its lock from
// Begin to Commit or Rollback (tidwall/buntdb): Begin takes it through a
// helper that locks for writing or for reading by the transaction's kind,
// and a managed transaction commits or rolls back in a deferred function.
// What the transaction does holds the lock, so it does not race with
// Close; a method that touches the keys without beginning one does.
package txlock

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type DB struct {
	mu     sync.RWMutex
	keys   map[string]string
	closed bool
}

type Tx struct {
	db       *DB
	writable bool
	funcd    bool
}

func (db *DB) Begin(writable bool) (*Tx, error) {
	tx := &Tx{db: db, writable: writable}
	tx.lock()
	if db.closed {
		tx.unlock()
		return nil, errClosed
	}
	return tx, nil
}

func (tx *Tx) lock() {
	if tx.writable {
		tx.db.mu.Lock()
	} else {
		tx.db.mu.RLock()
	}
}

func (tx *Tx) unlock() {
	if tx.writable {
		tx.db.mu.Unlock()
	} else {
		tx.db.mu.RUnlock()
	}
}

func (db *DB) managed(writable bool, fn func(tx *Tx) error) (err error) {
	var tx *Tx
	tx, err = db.Begin(writable)
	if err != nil {
		return
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
			return
		}
		if writable {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
	}()
	tx.funcd = true
	defer func() {
		tx.funcd = false
	}()
	err = fn(tx)
	return
}

// Update runs fn in a read/write transaction.
func (db *DB) Update(fn func(tx *Tx) error) error {
	return db.managed(true, fn)
}

func (tx *Tx) Rollback() error {
	if tx.db == nil {
		return errClosed
	}
	if tx.writable {
		tx.rollbackInner()
	}
	tx.unlock()
	tx.db = nil
	return nil
}

func (tx *Tx) rollbackInner() {
	tx.db.keys = map[string]string{} // no race: the transaction holds db.mu
}

func (tx *Tx) Commit() error {
	if tx.db == nil {
		return errClosed
	}
	tx.db.keys["committed"] = "yes"
	tx.unlock()
	tx.db = nil
	return nil
}

// Close takes the lock and drops the keys.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.closed = true
	db.keys = nil
	return nil
}

// Len reads the keys with no transaction and no lock.
func (db *DB) Len() int {
	return len(db.keys) // want `DB.keys\[\] read in DB.Len .* races with its write in Tx.Commit` `DB.keys read in DB.Len .* races with its write in Tx.rollbackInner`
}
