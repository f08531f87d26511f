// Package lockedconv has no directives: under guard inference, a method
// named ...Locked, or a function whose doc says its caller holds a lock,
// carries that contract, and guardedby checks its calls. Only calls where
// the caller itself left the lock released (or held it on some paths only)
// are reported, and calls from entry points (an exported method of an
// exported type, a function started with go) where no caller can hold the
// lock; elsewhere, where the state is merely unknown, nothing is.
package lockedconv

import "sync"

// Conn has one lock: flushLocked holds c.mu.
type Conn struct {
	mu  sync.Mutex
	buf []byte
}

func (c *Conn) flushLocked() { c.buf = c.buf[:0] }

// Write drops the lock, then calls flushLocked: the bug shape.
func (c *Conn) Write(p []byte) {
	c.mu.Lock()
	c.buf = append(c.buf, p...)
	c.mu.Unlock()
	c.flushLocked() // want `call to c.flushLocked needs c.mu locked \(its name ends in Locked; //guard:holds c.mu on it makes this a checked directive\), but c.mu is not held here; lock c.mu before the call`
}

// Flush holds the lock at the call: silent.
func (c *Conn) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

// FlushHeld has no lock operations, and it is an entry point: exported,
// never called in the package, and callers outside cannot hold the
// unexported c.mu.
func (c *Conn) FlushHeld() {
	c.flushLocked() // want `call to c.flushLocked needs c.mu locked \(its name ends in Locked; //guard:holds c.mu on it makes this a checked directive\), but c.mu is not held here: FlushHeld is exported and callers outside the package cannot hold the unexported mu, so no caller holds c.mu; lock c.mu before the call`
}

// FlushInner is exported too, but the package calls it with c.mu held:
// the state at its entry is unknown, and nothing is reported.
func (c *Conn) FlushInner() {
	c.flushLocked()
}

func (c *Conn) Close() {
	c.mu.Lock()
	c.FlushInner()
	c.mu.Unlock()
}

// flushLoop is started with go: it holds no lock at its start.
func (c *Conn) flushLoop() {
	c.flushLocked() // want `flushLoop is started with go, so no caller holds c.mu`
}

func (c *Conn) Start() { go c.flushLoop() }

// connLocked reads from a Conn whose mutex is already held: its Read is
// exported, but only the package makes these values (silent).
type connLocked struct{ c *Conn }

func (cl connLocked) Read(p []byte) (int, error) {
	cl.c.flushLocked()
	return 0, nil
}

// Maybe locks on one path only.
func (c *Conn) Maybe(lock bool) {
	if lock {
		c.mu.Lock()
	}
	c.flushLocked() // want `call to c.flushLocked needs c.mu locked \(its name ends in Locked; .*\), but c.mu is held on some paths only here`
	if lock {
		c.mu.Unlock()
	}
}

// resetLocked calls flushLocked with the lock its own name promises: silent.
func (c *Conn) resetLocked() {
	c.flushLocked()
	c.buf = nil
}

func (c *Conn) Reset() {
	c.mu.Lock()
	c.resetLocked()
	c.mu.Unlock()
}

// Background starts a ...Locked method as a goroutine, which holds no
// locks whatever its starter holds.
func (c *Conn) Background() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go c.flushLocked() // want `go c.flushLocked runs in a new goroutine, which holds no locks, but it needs c.mu held`
}

// Cache has an RWMutex: a ...Locked method needs it at least read-locked.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) lookupLocked(k string) int { return c.m[k] }

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.lookupLocked(k) // read-locked is enough: silent
}

func (c *Cache) Stale(k string) int {
	c.mu.RLock()
	c.mu.RUnlock()
	return c.lookupLocked(k) // want `call to c.lookupLocked needs c.mu read- or write-locked \(its name ends in Locked; //guard:rholds c.mu .*\), but c.mu is not held here`
}

// DB states its contracts in doc comments instead of names.
type DB struct {
	mu    sync.Mutex
	conns int
}

// release drops one connection. Caller must hold db.mu.
func (db *DB) release() { db.conns-- }

// grow adds a connection. Assumes db.mu is locked.
func (db *DB) grow() { db.conns++ }

// shrink removes a connection; called with db.mu held.
func (db *DB) shrink() { db.conns-- }

// clear zeroes the count; db.mu must be held.
func (db *DB) clear() { db.conns = 0 }

// Close drops the lock, then breaks all four doc-stated contracts.
func (db *DB) Close() {
	db.mu.Lock()
	db.mu.Unlock()
	db.release() // want `call to db.release needs db.mu locked \(its doc comment says so; //guard:holds db.mu on it makes this a checked directive\), but db.mu is not held here; lock db.mu before the call`
	db.grow()    // want `call to db.grow needs db.mu locked \(its doc comment says so; .*, but db.mu is not held here`
	db.shrink()  // want `call to db.shrink needs db.mu locked \(its doc comment says so; .*, but db.mu is not held here`
	db.clear()   // want `call to db.clear needs db.mu locked \(its doc comment says so; .*, but db.mu is not held here`
}

func (db *DB) Put() {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.release() // held: silent
	db.grow()
	db.shrink()
	db.clear()
}

// Dual has two locks. closeLocked's doc names neither, so no lock can be
// chosen and there is no contract: the call after an Unlock is silent.
type Dual struct {
	rmu, wmu sync.Mutex
	open     bool
}

// closeLocked marks the connection closed.
func (d *Dual) closeLocked() { d.open = false }

// sendLocked writes a frame; the caller holds wmu.
func (d *Dual) sendLocked() { d.open = true }

func (d *Dual) Close() {
	d.rmu.Lock()
	d.wmu.Lock()
	d.wmu.Unlock()
	d.rmu.Unlock()
	d.closeLocked() // no contract: silent
}

// Send drops wmu before sendLocked, whose doc names wmu: reported.
func (d *Dual) Send() {
	d.wmu.Lock()
	d.wmu.Unlock()
	d.sendLocked() // want `call to d.sendLocked needs d.wmu locked \(its name ends in Locked; //guard:holds d.wmu .*\), but d.wmu is not held here`
}

// Recv holds rmu only; sendLocked needs wmu, which Recv never touched:
// Recv is an entry point, so no caller holds wmu either.
func (d *Dual) Recv() {
	d.rmu.Lock()
	defer d.rmu.Unlock()
	d.sendLocked() // want `call to d.sendLocked needs d.wmu locked .*: Recv is exported and callers outside the package cannot hold the unexported wmu`
}

// recvHeld is unexported: its callers may hold wmu, unknown, so silent.
func (d *Dual) recvHeld() {
	d.sendLocked()
}

func (d *Dual) Pump() {
	d.wmu.Lock()
	d.recvHeld()
	d.wmu.Unlock()
}

// Magic and peer: a ...Locked method of peer whose doc names the lock of
// another type, Magic.mu, reached through peer.c. The body runs under
// de.c.mu, not de.mu (which it takes itself): silent.
type Magic struct {
	mu    sync.Mutex
	peers map[int]int
}

type peer struct {
	mu   sync.Mutex
	c    *Magic
	seen int
}

// handlePongMagicLocked handles a pong. It should be called with the
// Magic.mu held.
func (de *peer) handlePongMagicLocked() {
	de.mu.Lock()
	defer de.mu.Unlock()
	de.seen++
	de.c.peers[de.seen] = 1
}

func (m *Magic) handle(de *peer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.peers[0] = 0
	de.handlePongMagicLocked()
}

func (m *Magic) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.peers)
}

func (m *Magic) Del(k int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.peers, k)
}

func (m *Magic) Get(k int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peers[k]
}

func (m *Magic) Set(k, v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.peers[k] = v
}

func (m *Magic) Has(k int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.peers[k]
	return ok
}

func (m *Magic) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.peers)
}

func (m *Magic) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.peers = map[int]int{}
}

func (m *Magic) Sum() (n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, v := range m.peers {
		n += v
	}
	return n
}

// resetAndUnlock empties the buffer. c.mu must be held by the caller, and
// it is released before resetAndUnlock returns.
func (c *Conn) resetAndUnlock() {
	c.buf = nil
	c.mu.Unlock()
}

// ResetAsync hands its lock to the goroutine, which releases it: silent.
func (c *Conn) ResetAsync() {
	c.mu.Lock()
	go c.resetAndUnlock()
}

// ResetAsyncUnheld starts it with nothing to hand over.
func (c *Conn) ResetAsyncUnheld() {
	go c.resetAndUnlock() // want `go c.resetAndUnlock runs in a new goroutine, which holds no locks, but it needs c.mu held`
}

// Perms: a ...Locked name is checked against the body. mergeLocked takes
// p.mu itself (its doc says the lock must not be held on entry), so it
// carries no contract and calls without the lock are right; waitLocked
// releases p.mu first, then retakes it, so it does need it held.
type Perms struct {
	mu   sync.Mutex
	deny []string
}

// Client lock must not be held on entry.
func (p *Perms) mergeLocked(d string) {
	p.mu.Lock()
	p.deny = append(p.deny, d)
	p.mu.Unlock()
}

func (p *Perms) waitLocked() {
	p.mu.Unlock()
	p.mu.Lock()
}

func (p *Perms) Merge(d string) {
	p.mu.Lock()
	n := len(p.deny)
	p.mu.Unlock()
	if n == 0 {
		p.mergeLocked(d) // silent: mergeLocked locks p.mu itself
	}
	p.waitLocked() // want `call to p.waitLocked needs p.mu locked`
}

// Doc says the caller holds the lock, but the body takes it: no contract.
type Gauge struct {
	mu sync.Mutex
	v  int
}

// set stores v. Caller must hold g.mu.
func (g *Gauge) set(v int) {
	g.mu.Lock()
	g.v = v
	g.mu.Unlock()
}

func (g *Gauge) Reset() { g.set(0) }

// Blocks: dropBlock steps out of b.mu on one path (unlock, write, relock),
// so its body shows its caller holds b.mu; after the branches b.mu is held
// on every path, and the call of countLocked is silent. dropBlockLeaky
// does not take b.mu back on its other path: reported.
type Blocks struct {
	mu   sync.Mutex
	n    int
	last bool
}

func (b *Blocks) countLocked() int { return b.n }

func (b *Blocks) dropBlock() int {
	if b.last {
		b.mu.Unlock()
		b.flush()
		b.mu.Lock()
	}
	return b.countLocked()
}

func (b *Blocks) dropBlockLeaky() int {
	if b.last {
		b.mu.Unlock()
		b.flush()
		b.mu.Lock()
	} else {
		b.mu.Unlock()
		b.flush()
	}
	return b.countLocked() // want `call to b.countLocked needs b.mu locked .*, but b.mu is held on some paths only here`
}

func (b *Blocks) flush() {}

func (b *Blocks) Drop() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropBlock() + b.dropBlockLeaky()
}
