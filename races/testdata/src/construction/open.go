package construction

import (
	"errors"
	"sync"
)

// A database's Open sets up what it builds before it hands it out:
// helpers that keep it in the objects they make for it or in a part of
// it (db.vlog.init(db)), a deferred
// clean-up that captures it, constructors that start goroutines on it
// and wait for them, and an error beside the part a helper returns. An
// exported method that opens a database of its own for its output
// (badger's StreamDB) reaches that set-up: it is no race with the user's
// calls on the database they hold. A write after the database is out is
// reported.

type oracle struct{ next uint64 }

func newOracle() *oracle { return &oracle{} }

type skiplist struct{ onClose func() }

func newSkiplist() *skiplist { return &skiplist{} }

type memTable struct{ sl *skiplist }

type levels struct {
	db     *DB
	tables []int
}

// newLevels opens the tables in goroutines it waits for.
func newLevels(db *DB) (*levels, error) {
	s := &levels{db: db}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			s.tables = append(s.tables, len(db.name))
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(s.tables) == 0 {
		return nil, errors.New("no tables")
	}
	return s, nil
}

// openMemTable gives the skiplist a clean-up that logs through the
// database.
func (db *DB) openMemTable() *memTable {
	s := newSkiplist()
	mt := &memTable{sl: s}
	s.onClose = func() { db.logf("closing %d", len(mt.sl.onCloseName())) }
	return mt
}

func (s *skiplist) onCloseName() string { return "skiplist" }

// valueLog is part of its database and points back at it.
type valueLog struct {
	db   *DB
	head int
}

func (vlog *valueLog) init(db *DB) { vlog.db = db }

// DB is used from many goroutines: its methods lock its mutex.
type DB struct {
	mu   sync.Mutex
	name string
	orc  *oracle
	imm  []*memTable
	lc   *levels
	vlog valueLog
	logs []string
}

func (db *DB) logf(format string, n int) {
	db.mu.Lock()
	db.logs = append(db.logs, format)
	db.mu.Unlock()
}

func OpenDB(name string) (db *DB, err error) {
	db = &DB{name: name, orc: newOracle()}
	defer func() {
		if err != nil {
			db.logf("open failed: %v", len(err.Error()))
			db = nil
		}
	}()
	db.imm = append(db.imm, db.openMemTable())
	db.vlog.init(db)
	if db.lc, err = newLevels(db); err != nil {
		return db, err
	}
	db.orc.next = 1
	return db, nil
}

func (db *DB) Close() {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.imm = nil
	db.orc.next = 0
}

// Stream opens a database of its own for its output.
func (db *DB) Stream(name string) error {
	out, err := OpenDB(name)
	if err != nil {
		return err
	}
	out.Close()
	return nil
}

// Reset rewinds the oracle of the database the user holds, without the
// lock: against Close.
func (db *DB) Reset() {
	db.orc.next = 1 // want `oracle.next written in DB.Reset \(exported method: DB.Reset\) races with its write in DB.Close`
}
