// Package madefirst is a library whose methods run at once (they take
// the database's lock). Open sets up a database it made, and only
// afterwards can anything start the writer goroutine on that database:
// Stream opens one of its own and starts its writer after Open returned,
// DropAll starts the writer on the receiver, another database. The same
// go statement, reached both ways, orders Open's set-up before the
// writer's reads. A constructor that starts the writer itself before
// its set-up is done still races.
package madefirst

import "sync"

type DB struct {
	mu      sync.Mutex
	reg     map[int]string
	size    int
	writes  chan int
	stopped bool
	vl      valueLog
}

// valueLog is held in the database itself, not through a pointer.
type valueLog struct {
	maxFid int
}

// open sets up the log of a database being opened.
func (vl *valueLog) open(n int) {
	vl.maxFid = n
}

// Open makes a database, starts a monitor that only reads the size it
// was given, then sets the registry up: handed to its own monitor, but
// to no writer yet.
func Open(n int) *DB {
	db := &DB{writes: make(chan int)}
	go db.monitor(n)
	db.reg = map[int]string{}
	db.reg[0] = "root"
	db.setSize(n)
	db.vl.open(n)
	return db
}

func (db *DB) setSize(n int) {
	db.size = n
}

func (db *DB) monitor(n int) {
	for range n {
		db.mu.Lock()
		db.stopped = false
		db.mu.Unlock()
	}
}

func (db *DB) startWriter() {
	go db.writer()
}

func (db *DB) writer() {
	for k := range db.writes {
		if db.reg[k] == "" && db.size > 0 && db.vl.maxFid > 0 {
			println(k)
		}
	}
}

// DropAll restarts the writer of the receiver.
func (db *DB) DropAll() {
	db.mu.Lock()
	db.stopped = true
	db.mu.Unlock()
	db.startWriter()
}

// Stream opens a database of its own and starts its writer.
func (db *DB) Stream() *DB {
	out := Open(db.size)
	out.startWriter()
	return out
}

type Log struct {
	mu    sync.Mutex
	files map[int]string
	ch    chan int
}

// OpenLog starts the reader before it fills the map the reader reads.
func OpenLog() *Log {
	l := &Log{ch: make(chan int)}
	l.startReader()
	l.files = map[int]string{} // want `Log.files written in OpenLog .* races with its read in Log.reader`
	return l
}

func (l *Log) startReader() {
	go l.reader()
}

func (l *Log) reader() {
	for k := range l.ch {
		if l.files[k] == "" {
			println(k)
		}
	}
}

// Rotate restarts the reader.
func (l *Log) Rotate() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.startReader()
}

// Reopen opens another log.
func (l *Log) Reopen() *Log {
	return OpenLog()
}

// Lookup reads the registry under the lock: the registry is shared
// state.
func (db *DB) Lookup(k int) string {
	db.mu.Lock()
	defer db.mu.Unlock()
	if k > db.vl.maxFid {
		return ""
	}
	return db.reg[k]
}

// File reads the files under the lock.
func (l *Log) File(k int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files[k]
}
