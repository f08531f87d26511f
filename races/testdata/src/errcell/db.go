// Package errcell holds a lock from a call that succeeds to the commit
// that releases it, with the error kept in a named result a deferred
// function reads (bbolt's Tx.Commit). Two things keep the lock held
// along the way: a helper that releases the lock before returning the
// error it checked is not taken to release it where it succeeds (its
// `return err` is on the way where err is not nil), and `err = f(); if
// err != nil` on a named result is the check of f's error.
package errcell

import (
	"errors"
	"log"
	"sync"
)

var errClosed = errors.New("closed")

type DB struct {
	rw   sync.Mutex
	open bool
	data int
}

type Tx struct{ db *DB }

func (db *DB) begin() (*Tx, error) {
	db.rw.Lock()
	if !db.open {
		db.rw.Unlock()
		return nil, errClosed
	}
	return &Tx{db: db}, nil
}

func (tx *Tx) rollback() { tx.db.rw.Unlock() }

func (tx *Tx) grow() error {
	if tx.db.data > 1<<20 {
		return errClosed
	}
	tx.db.data++ // no race: rw is held from begin to commit
	return nil
}

// flush releases the lock where grow fails, and returns grow's error
// there: where flush succeeds, the lock is still held.
func (tx *Tx) flush() error {
	err := tx.grow()
	if err != nil {
		tx.rollback()
		return err
	}
	return nil
}

func (tx *Tx) commit() (err error) {
	defer func() {
		if err != nil {
			log.Printf("commit failed: %v", err)
		}
	}()
	if err = tx.flush(); err != nil {
		return err
	}
	tx.db.data *= 2 // no race: rw is still held
	tx.rollback()
	return nil
}

// Update runs a transaction holding rw from begin to commit.
func (db *DB) Update() error {
	tx, err := db.begin()
	if err != nil {
		return err
	}
	return tx.commit()
}

// Read takes rw too.
func (db *DB) Read() int {
	db.rw.Lock()
	defer db.rw.Unlock()
	return db.data
}

// Peek does not.
func (db *DB) Peek() int {
	return db.data // want `DB.data read in DB.Peek \(exported method: DB.Peek\) races with its write in`
}
