// Package kept: an object a goroutine made and has handed to none but
// the goroutines it starts itself is out of reach of every other
// goroutine: of another call of the same exported method, of a root
// that goroutine did not start. Its set-up after it starts a worker
// with it (badger's Open) races with that worker, not with the other
// calls of the library.
package kept

import (
	"sync"
)

// Env opens databases; its methods lock its mutex.
type Env struct {
	mu     sync.Mutex
	opened int
}

// DB is used from many goroutines: its methods lock its mutex.
type DB struct {
	mu        sync.Mutex
	compactor *closer
	flushes   int
	opts      *Options
	process   func() error
}

type closer struct{ done chan struct{} }

func (db *DB) monitor() {
	db.mu.Lock()
	db.flushes++
	db.mu.Unlock()
}

// Open makes a DB, starts its monitor with it, then sets it up: the
// monitor never touches compactor, so no finding, though Open's DB is
// already handed to a goroutine; nor does another call's Stop, which
// stops a DB Open has returned.
func (e *Env) Open() *DB {
	e.mu.Lock()
	e.opened++
	e.mu.Unlock()
	db := &DB{}
	go db.monitor()
	db.compactor = &closer{done: make(chan struct{})}
	return db
}

// OpenRacy writes a field its own monitor reads: that race stays.
func (e *Env) OpenRacy() *DB {
	db := &DB{}
	go db.monitorRacy()
	db.flushes = 1 // want `DB.flushes written in Env.OpenRacy \(exported method: Env.OpenRacy\) races with its read in DB.monitorRacy`
	return db
}

func (db *DB) monitorRacy() {
	_ = db.flushes
}

// Stop reads the compactor of a DB a caller opened before.
func (db *DB) Stop() {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.compactor != nil {
		close(db.compactor.done)
	}
}

// Options are copied and completed by each client: clone hands the
// copy over unpublished, so init's writes are set-up.
type Options struct {
	Network string
}

func (o *Options) clone() *Options {
	c := *o
	return &c
}

func (o *Options) init() {
	if o.Network == "" {
		o.Network = "tcp"
	}
}

// NewClient completes its own copy of the options.
func (db *DB) NewClient(o *Options) *Client {
	db.mu.Lock()
	defer db.mu.Unlock()
	opt := o.clone()
	opt.init()
	return &Client{opt: opt}
}

// Client reads its options under its own lock.
type Client struct {
	mu   sync.Mutex
	opt  *Options
	cmd  func() error
	name string
}

func (c *Client) Dial() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opt.Network
}

// NewClientFrom sets a client up, storing a method value of the client
// into the client itself before handing it out: set-up, no finding.
func (db *DB) NewClientFrom(opt *Options) *Client {
	db.mu.Lock()
	defer db.mu.Unlock()
	c := &Client{opt: opt.clone()}
	c.init()
	return c
}

func (c *Client) init() {
	c.cmd = c.process
	c.name = "client"
}

func (c *Client) Name() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name
}

func (c *Client) process() error { return nil }

// Merge's variable is its own call's: the function literal that writes
// it is run by the callee it is handed to (which only compares it with
// nil and calls it), in the same goroutine.
func (db *DB) Merge(vals [][]byte) []byte {
	var merged []byte
	for _, v := range vals {
		merged = append(merged, v...)
		each(v, func(b []byte) {
			merged = append(merged, b...)
		})
	}
	return merged
}

// StartCompactions merges in a goroutine of its own: its call of Merge
// has its own variable.
func (db *DB) StartCompactions(vals [][]byte) {
	go func() {
		db.Merge(vals)
	}()
}

func each(b []byte, fn func([]byte)) {
	if fn != nil {
		fn(b)
	}
}

// Conf is read under its lock by its exported method.
type Conf struct {
	mu sync.Mutex
	n  int
}

func (c *Conf) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Make hands its new Conf (held in a variable a function literal
// captures) to a check that only compares it with nil, and to a literal
// that a helper only calls: neither publishes it, so the write after is
// set-up.
func (e *Env) Make() *Conf {
	c := &Conf{}
	check(c)
	run(func() { check(c) })
	c.n = 3
	return c
}

func check(c *Conf) {
	if c == nil {
		panic("nil")
	}
}

func run(fn func()) { fn() }
