// Package guaranteeexceptions shows each exception docs/silence.md's "What silence
// means" lists: code where a guarded field is reached without its lock and
// guardvet reports nothing. Cases marked "exception" are silent by design;
// cases marked "not reported" are gaps a future fix may close, and then
// show up here as unexpected diagnostics.
package guaranteeexceptions

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

type C struct {
	mu sync.Mutex
	n  int //guard:by mu
}

//guard:holds c.mu
func (c *C) incLocked() { c.n++ }

// ---- code guardvet cannot follow: unsafe, reflect ----

func viaUnsafe(c *C) {
	p := (*int)(unsafe.Add(unsafe.Pointer(c), unsafe.Offsetof(c.n)))
	*p = 1 // exception: unsafe pointer arithmetic is not followed
}

func viaReflect(c *C) {
	reflect.ValueOf(c).Elem().FieldByName("n").SetInt(1) // exception: reflect is not followed
}

// ---- suppressions ----

//guard:ignore checked by hand: the exception is the whole function
func ignoredFunc(c *C) {
	c.n++
	func() { c.n++ }() // exception: closures inside an ignored function are ignored too
	go func() { c.n++ }()
}

func ignoredLine(c *C) {
	c.n++ //guard:ignore exception: this line only
}

// +checklocksignore
func checklocksIgnoredFunc(c *C) {
	c.n++ // exception: +checklocksignore on the function
}

func checklocksIgnoredLine(c *C) {
	c.n++ // +checklocksignore
}

type U struct {
	mu sync.Mutex
	// +checklocksignore
	n int // exception: +checklocksignore on a field: the field is not guarded
}

func unguarded(u *U) { u.n++ }

func forced(c *C) {
	c.n++ // +checklocksforce
	c.n++ // exception: +checklocksforce makes the lock held from its line on
}

// ---- an atomic load of a field that is also //guard:atomic ----

type A struct {
	mu sync.Mutex
	//guard:by mu
	//guard:atomic
	hits int64
}

func atomicRead(a *A) int64 {
	return atomic.LoadInt64(&a.hits) // exception: an atomic load needs no lock
}

// ---- new objects before another goroutine can reach them ----

func newC() *C {
	c := &C{}
	c.n = 1 // exception: c is not published yet
	initC(c)
	return c
}

// Reported: initC does not know its argument is new.
func initC(c *C) {
	c.n = 2 // want `c.n written while c.mu is not known to be held`
}

// ---- contracts called where guardvet does not see the callee ----

func methodValue(c *C) {
	f := c.incLocked
	f() // not reported: a method value's contract is not checked where it is called
}

func funcValue(c *C, f func(*C)) {
	f(c) // not reported: nor a function value's
}

type incer interface{ incLocked() }

func viaInterface(c *C) {
	var i incer = c
	i.incLocked() // not reported: interface methods have no contracts
}

type lockedIncer interface {
	*C
	incLocked()
}

func viaTypeParam[P lockedIncer](p P) {
	p.incLocked() // not reported: nor methods called through a type parameter
}

// ---- lock operations and lock effects guardvet does not see ----

func run(f func()) { f() }

func runLater(f func()) { go f() }

func unlockPassedOn(c *C) {
	c.mu.Lock()
	runLater(c.mu.Unlock)
	c.n++ // not reported: an Unlock through a method value handed to a function that does not run it in place is not seen; c.mu is still taken as held
	run(func() {})
}

func unlockThroughReassigned(c *C, other func()) {
	c.mu.Lock()
	unlock := c.mu.Unlock
	if other != nil {
		unlock = other
	}
	unlock()
	c.n++ // not reported: a local that may hold some other function value is not followed
}

func unlockThroughMethodExpr(c *C) {
	c.mu.Lock()
	(*sync.Mutex).Unlock(&c.mu)
	c.n++ // not reported: nor one through a method expression
}

type releaser interface{ release() }

func (c *C) release() { c.mu.Unlock() }

func unlockThroughInterface(c *C) {
	c.mu.Lock()
	var r releaser = c
	r.release()
	c.n++ // not reported: the lock effect of a call through an interface is not known
}

func (c *C) unlockIf(b bool) {
	if b {
		c.mu.Unlock()
	}
}

func unlockOnSomePaths(c *C, b bool) {
	c.mu.Lock()
	c.unlockIf(b)
	c.n++ // not reported: a helper that unlocks on some paths only has no summary; c.mu is still taken as held
}

//guard:acquires c.mu
func (c *C) lockIf(b bool) {
	if b {
		c.mu.Lock()
	}
}

func contractOnSomePaths(c *C) {
	c.lockIf(false)
	c.n++ // not reported: lockIf keeps its //guard:acquires on some paths only, and callers trust the contract
	c.mu.Unlock()
}

// ---- package-level initialisers ----

var (
	globalMu sync.Mutex
	total    int //guard:by globalMu
)

var snapshot = total // not reported: package-level initialisers are not analysed

// A function literal in one is: it runs whenever it is called, as a
// declared function does.
var hook = func() {
	total++ // want `total written while globalMu is not known to be held`
}

// ---- a deferred call on a panic path ----

//guard:acquires c.mu
func lockAfter(c *C, work func()) {
	defer func() {
		if recover() != nil {
			c.n = 0 // not reported: checked at the return, where c.mu is held, not where work may panic
		}
	}()
	work()
	c.mu.Lock()
}

// ---- a local made to name another object behind guardvet's back ----

func next(p **C) { *p = nil }

func reassignedThroughAddress(c *C) {
	c.mu.Lock()
	next(&c)
	c.n++ // not reported: next(&c) may change c; what was known of the old c's locks is kept
	c.mu.Unlock()
}

func reassignedInClosure(c, other *C) {
	c.mu.Lock()
	func() { c = other }()
	c.n++ // not reported: the closure changes c; what was known of the old c's locks is kept
	c.mu.Unlock()
}

type H struct{ p *C }

func (h *H) swap(other *C) { h.p = other }

func changedByCallee(h *H, other *C) {
	h.p.mu.Lock()
	h.swap(other)
	h.p.n++ // not reported: swap changes h.p; guardvet assumes the objects along a lock path stay put
	h.p.mu.Unlock()
}

// +checklocksalias:a.mu=b.mu
type Pair struct {
	a, b *C
}

func aliasTrusted(p *Pair) {
	p.a.mu.Lock()
	p.b.n++ // exception: +checklocksalias says p.b.mu is p.a.mu, and guardvet trusts it
	p.a.mu.Unlock()
}

// ---- whole-struct copies ----

type Settings struct {
	level int //guard:by globalMu
}

func copyOut(s *Settings) Settings {
	return *s // not reported: copying a struct reads its guarded fields
}

func copyIn(s *Settings) {
	*s = Settings{} // not reported: overwriting a struct writes them
}
