package guardinfer

import "sync"

// Prose guards: what comments say about a field's lock. Few sites each,
// far from the 90% bar, so only the comment can make them findings.

// Link: a trailing "guarded by mu" on a field, read bare in Peek.
type Link struct {
	mu    sync.Mutex
	state string // guarded by mu
	hops  int    // protected by mu
	peer  string // must hold mu
}

func (l *Link) Up() {
	l.mu.Lock()
	l.state = "up"
	l.hops++
	l.peer = "x"
	l.mu.Unlock()
}

func (l *Link) Peek() string {
	return l.state // want `l.state is documented as guarded by mu \("guarded by mu" at prose.go:\d+\), but l.mu is not held here`
}

func (l *Link) Hops() int {
	return l.hops // want `l.hops is documented as guarded by mu \("protected by mu" at prose.go:\d+\), but l.mu is not held here`
}

func (l *Link) Peer() string {
	return l.peer // want `l.peer is documented as guarded by mu \("must hold mu" at prose.go:\d+\), but l.mu is not held here`
}

// Hat: the mutex names what it guards. a and b are listed; c is not.
type Hat struct {
	mu sync.Mutex // guards a and b
	a  int
	b  []string
	c  int
}

func (h *Hat) Set(v int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.a = v
	h.b = append(h.b, "x")
	h.c = v
}

func (h *Hat) A() int { return h.a } // want `h.a is documented as guarded by mu \("guards a and b" at prose.go:\d+\), but h.mu is not held here`

func (h *Hat) B() int {
	return len(h.b) // want `h.b is documented as guarded by mu \("guards a and b" at prose.go:\d+\), but h.mu is not held here`
}

func (h *Hat) C() int { return h.c } // want `h.c is read here with no lock held \(in exported Hat.C\), and written at prose.go:\d+ with h.mu held`

// Section: "protects the following fields" applies until a blank line.
type Section struct {
	mu    sync.Mutex // protects the following fields
	count int
	names []string
	order []int // in insertion order

	hint int // after the blank line: not covered
}

func (s *Section) Add(n string) {
	s.mu.Lock()
	s.count++
	s.names = append(s.names, n)
	s.order = append(s.order, len(n))
	s.hint = len(n)
	s.mu.Unlock()
}

func (s *Section) Count() int {
	return s.count // want `s.count is documented as guarded by mu \("protects the following fields" at prose.go:\d+\), but s.mu is not held here`
}

func (s *Section) Names() []string {
	return s.names // want `s.names is documented as guarded by mu \("protects the following fields" at prose.go:\d+\)`
}

func (s *Section) Hint() int { return s.hint } // want `s.hint is read here with no lock held \(in exported Section.Hint\)`

// order's own trailing comment does not take it out of the section.
func (s *Section) Order() []int { return s.order } // want `s.order is documented as guarded by mu \("protects the following fields" at prose.go:\d+\)`

// Split: a field with a comment above it starts a new section too.
type Split struct {
	mu   sync.Mutex // protects the following fields
	open bool
	// retries is owned by the dialer goroutine.
	retries int
	last    int
}

func (s *Split) Dial() {
	s.mu.Lock()
	s.open = true
	s.retries++
	s.last = 1
	s.mu.Unlock()
}

func (s *Split) Open() bool { return s.open } // want `s.open is documented as guarded by mu`

func (s *Split) Retries() int { return s.retries + s.last } // want `s.last is read here with no lock held \(in exported Split.Retries\)`

// Qualified: comments that qualify the guard are not plain guards and are
// ignored rather than guessed at; the unresolvable one names no lock.
type Qualified struct {
	mu     sync.Mutex
	size   int    // guarded by mu for writes
	cap    int    // guarded by mu, except during init
	ready  bool   // guarded by mu when open
	spirit string // guarded by the gods

	// Not guarded by mu.
	sent bool
	last bool // is never protected by mu
}

func (q *Qualified) Grow() {
	q.mu.Lock()
	q.size++
	q.cap *= 2
	q.ready = true
	q.spirit = "awake"
	q.sent = true
	q.last = true
	q.mu.Unlock()
}

func (q *Qualified) Sent() bool { return q.sent && q.last } // silent: negated

func (q *Qualified) Size() int    { return q.size }  // silent
func (q *Qualified) Cap() int     { return q.cap }   // silent
func (q *Qualified) Ready() bool  { return q.ready } // silent
func (q *Qualified) Spirit() bool { return q.spirit != "" }

// Frozen: documented as guarded, but written only before publication: a
// field nothing writes later cannot race, so its bare read is silent.
type Frozen struct {
	mu   sync.Mutex
	name string // guarded by mu
}

func NewFrozen(n string) *Frozen { return &Frozen{name: n} }

func (f *Frozen) Name() string { return f.name }

func (f *Frozen) Locked() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.name
}

// ReadTx: a lock whose comment limits what it protects to some requests
// ("on Range requests", "during startup", "while draining") is a
// qualified guard too, and the bare write made on another path is not
// reported against it (etcd's baseReadTx.txMu). TwinTx says the same
// with no qualifier and is reported.
type ReadTx struct {
	// txMu protects accesses to tx on Range requests.
	txMu sync.RWMutex
	tx   []byte
}

func (r *ReadTx) Range() []byte {
	r.txMu.RLock()
	defer r.txMu.RUnlock()
	return r.tx
}

func (r *ReadTx) Reset() { r.tx = nil }

type TwinTx struct {
	// txMu protects accesses to tx.
	txMu sync.RWMutex
	tx   []byte
}

func (r *TwinTx) Range() []byte {
	r.txMu.RLock()
	defer r.txMu.RUnlock()
	return r.tx
}

func (r *TwinTx) Reset() { r.tx = nil } // want `r.tx is documented as guarded by txMu \("protects accesses to tx." at prose.go:\d+\), but r.txMu is not held here`

// MQTTClient's lock "protects the options in a few limited cases where
// needed for testing": a guard for some cases only, not the field's
// guard, and its bare accesses are not reported (paho's
// client.optionsMu, taken only by the Servers accessor tests use).
// TwinMQTT's "protects the options" is reported.
type MQTTClient struct {
	// optionsMu protects the options in a few limited cases where needed for testing.
	optionsMu sync.Mutex
	options   []string
}

func NewMQTTClient(s []string) *MQTTClient { return &MQTTClient{options: s} }

func (c *MQTTClient) Servers() []string {
	c.optionsMu.Lock()
	defer c.optionsMu.Unlock()
	return c.options
}

func (c *MQTTClient) Reconnect(s []string) { c.options = s }

func (c *MQTTClient) First() string { return c.options[0] }

type TwinMQTT struct {
	// optionsMu protects the options.
	optionsMu sync.Mutex
	options   []string
}

func NewTwinMQTT(s []string) *TwinMQTT { return &TwinMQTT{options: s} }

func (c *TwinMQTT) Servers() []string {
	c.optionsMu.Lock()
	defer c.optionsMu.Unlock()
	return c.options
}

func (c *TwinMQTT) Reconnect(s []string) { c.options = s } // want `c.options is documented as guarded by optionsMu \("protects the options." at prose.go:\d+\), but c.optionsMu is not held here`

func (c *TwinMQTT) First() string { return c.options[0] }
