// Package heldonok: a function that takes a lock and releases it on
// each error return leaves it held where it succeeds (bbolt's
// beginRWTx): Update, which begins a writable transaction, checks the
// error and commits, holds the writer's lock through the commit, as
// Close does. Begin's flag picks the lock: Begin(true) takes the
// writer's, Begin(false) the reader's.
package heldonok

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("database not open")

type DB struct {
	rwlock   sync.Mutex
	mmaplock sync.RWMutex
	opened   bool
	data     []byte
	pages    int
	stats    int
}

type Tx struct {
	db       *DB
	writable bool
}

func (db *DB) beginRWTx() (*Tx, error) {
	db.rwlock.Lock()
	if !db.opened {
		db.rwlock.Unlock()
		return nil, ErrClosed
	}
	return &Tx{db: db, writable: true}, nil
}

func (db *DB) beginTx() (*Tx, error) {
	db.mmaplock.RLock()
	if !db.opened {
		db.mmaplock.RUnlock()
		return nil, ErrClosed
	}
	return &Tx{db: db}, nil
}

func (db *DB) Begin(writable bool) (*Tx, error) {
	if writable {
		return db.beginRWTx()
	}
	return db.beginTx()
}

func (tx *Tx) commit() {
	tx.db.pages++ // the writer's lock is held: Update's Begin(true) took it
	tx.db.mmaplock.Lock()
	tx.db.data = append(tx.db.data, 1)
	tx.db.mmaplock.Unlock()
	tx.db.rwlock.Unlock()
}

// Update runs fn in a writable transaction.
func (db *DB) Update(fn func(*Tx)) error {
	tx, err := db.Begin(true)
	if err != nil {
		return err
	}
	fn(tx)
	tx.commit()
	return nil
}

// View reads under the reader's lock.
func (db *DB) View() int {
	tx, err := db.Begin(false)
	if err != nil {
		return 0
	}
	n := len(tx.db.data)
	tx.db.mmaplock.RUnlock()
	return n
}

// Stats counts with no lock at all: its update races with Close's, which
// holds every lock.
func (db *DB) Stats() {
	db.stats++ // want `DB.stats written in DB.Stats .* races with its write in DB.Close .*the write holds none, the other DB.mmaplock, DB.rwlock`
}

func (db *DB) Close() {
	db.rwlock.Lock()
	db.mmaplock.Lock()
	db.opened = false
	db.data = nil
	db.pages = 0
	db.stats = 0
	db.mmaplock.Unlock()
	db.rwlock.Unlock()
}
