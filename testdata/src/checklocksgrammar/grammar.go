// Package checklocksgrammar holds gVisor checklocks annotations in the
// forms checklocks reads by prefix, which guardvet honours the same way,
// and in the forms and places checklocks skips without a word, which
// guardvet reports at the annotation and does not apply either.
package checklocksgrammar

import "sync"

type T struct {
	mu sync.Mutex

	// +checklocks:mu
	n int

	// +checklocksignore.
	free int

	// +checkatomic.
	hits int64

	//+checklocks:mu // want `checklocks ignores \+checklocks:mu without a space after //, and so does guardvet; write // \+checklocks:mu`
	tight int

	//  +checklocks:mu // want `checklocks ignores \+checklocks:mu unless exactly one space follows //, and so does guardvet; write // \+checklocks:mu`
	wide int

	/* want `checklocks reads all the text after \+checklocks: as the lock path \(mu protects prose\) and cannot resolve it, so neither checklocks nor guardvet applies it; write // \+checklocks:mu and the remark on a line of its own` */ // +checklocks:mu protects prose
	//
	prose int

	block int /* +checklocks:mu */ // want `checklocks ignores \+checklocks:mu in a /\* \*/ comment, and so does guardvet; write // \+checklocks:mu`
}

func use(...int) {}

// Only n is guarded: the fields whose annotation checklocks skips are not.
func (t *T) unguarded() {
	use(t.free, t.tight, t.wide, t.prose, t.block)
	use(t.n) // want `t.n read while t.mu is not known to be held`
}

func (t *T) ignoredDot() int {
	return t.n // +checklocksignore.
}

func (t *T) ignoredText() int {
	return t.n // +checklocksignore the caller holds t.mu
}

func (t *T) ignoredGlued() int {
	return t.n // +checklocksignored // want `checklocks matches \+checklocksignore by prefix and reads \+checklocksignored as \+checklocksignore, and so does guardvet; write // \+checklocksignore, or another annotation`
}

// +checklocksignore because t.mu is held by every caller
func (t *T) ignoredFunc() int {
	return t.n
}

func (t *T) tightIgnore() int {
	return t.n //+checklocksignore // want `checklocks ignores \+checklocksignore without a space after //` `t.n read while t.mu is not known to be held`
}

// An ignore covers the line it ends, as checklocks keys it by line: the
// accesses on the next lines of the same statement are checked.
func (t *T) multiLine() {
	use(t.n, // +checklocksignore
		t.n) // want `t.n read while t.mu is not known to be held`
	use( // +checklocksignore
		t.n) // want `t.n read while t.mu is not known to be held`
	use(0,
		t.n, // +checklocksignore
		1)
	x := []int{t.n, // +checklocksignore
		t.n, // want `t.n read while t.mu is not known to be held`
	}
	y := struct{ a, b int }{a: t.n, // +checklocksignore: the first line only
		b: t.n, // want `t.n read while t.mu is not known to be held`
	}
	use(x[0], y.a)
}

func (t *T) alone() int {
	// +checklocksignore // want `\+checklocksignore on a line of its own: checklocks applies it only to its own line, where nothing is checked, and so does guardvet; put it at the end of the line it is meant for`
	return t.n // want `t.n read while t.mu is not known to be held`
}

func (t *T) nested() {
	f := func() int {
		return t.n // +checklocksignore
	}
	g := func() int { // +checklocksignore
		return t.n // want `t.n read while t.mu is not known to be held`
	}
	use(f(), g())
}

var globalMu sync.Mutex

func local() {
	/* want `checklocks ignores \+checklocks inside a function body \(on a local variable, a function literal or a statement\), and so does guardvet; annotate a struct field, a package-level variable or a function's doc comment` */ // +checklocks:globalMu
	//
	var x int
	y := 0 /* want `checklocks ignores \+checklocks inside a function body` */ // +checklocks:globalMu
	type L struct {
		mu sync.Mutex
		v  int /* want `checklocks ignores \+checklocks on a field of a struct type that is not declared at package level, or is written inside another type, and so does guardvet; write //guard:by mu, which guardvet reads there` */ // +checklocks:mu
	}
	var l L
	use(x, y, l.v)
}

// S's element struct type is written inside a slice type: checklocks does
// not read its fields' annotations.
type S struct {
	items []struct {
		mu sync.Mutex
		v  int /* want `checklocks ignores \+checklocks on a field of a struct type that is not declared at package level` */ // +checklocks:mu
	}
}

/* want `checklocks ignores \+checklocks here: of a package-level variable it reads only the comment lines above it inside var \( ... \), and so does guardvet; move the annotation there` */ // +checklocks:globalMu
var unread int

var (
	// +checklocks:globalMu
	read int

	trailing int /* want `checklocks ignores \+checklocks here: of a package-level variable` */ // +checklocks:globalMu

	/* want `checklocks applies \+checklocks only to first, the first of the variables declared together here, and so does guardvet; declare each on a line of its own with its annotation` */ // +checklocks:globalMu
	//
	first, second int
)

func globals() {
	use(unread, trailing, second)
	use(read)  // want `read read while globalMu is not known to be held`
	use(first) // want `first read while globalMu is not known to be held`
}

// M declares two fields on one line: checklocks numbers fields by line.
type M struct {
	mu   sync.Mutex
	a, b int /* want `checklocks applies \+checklocks only to a, the first of the fields declared together here` */ // +checklocks:mu

	c int /* want `checklocks applies \+checklocks to the field b, not c: it counts the fields declared together on an earlier line of this struct as one; declare each field on a line of its own` */ // +checklocks:mu
}

func (m *M) fields() {
	use(m.b)
	use(m.a) // want `m.a read while m.mu is not known to be held`
	use(m.c) // want `m.c read while m.mu is not known to be held`
}

// Package-level initializers: checklocks does not analyse them (buildssa
// lists function declarations and their literals), and keys a line
// annotation at the end of one of their lines by that line, as anywhere.
var snapshot = []int{len("a"), // +checklocksignore: set before any goroutine starts
	0,
}

var forcedInit = len("b") // +checklocksforce: set before any goroutine starts
