package guardinfer

import (
	"sync"
	"sync/atomic"
)

// A comment that says why an access runs without the lock explains it, as
// //guard:ignore would: in the function's doc, or above the access in its
// body. The words guardinfer reads are "without" the lock (or its name),
// "safely unlock", "the world is stopped" and "must serialize".

type Chan struct {
	mu sync.Mutex
	// guarded by mu
	state int
	// guarded by mu
	peers map[string]int
	hits  int64
}

func (c *Chan) Set(v int) {
	c.mu.Lock()
	c.state = v
	c.mu.Unlock()
}

func (c *Chan) Add(k string) {
	c.mu.Lock()
	c.peers[k]++
	c.mu.Unlock()
	atomic.AddInt64(&c.hits, 1)
}

// Close stops every other operation, then goes on unlocked.
func (c *Chan) Close() {
	c.mu.Lock()
	c.state = -1
	// We can safely unlock and continue to access all fields now: state -1
	// stops every other operation.
	c.mu.Unlock()
	clear(c.peers)
}

// start must be called without c.mu: it calls back into Set.
func (c *Chan) start() int { return c.state }

// Count is for tests. Callers must serialize it with Add.
func (c *Chan) Count() int { return len(c.peers) }

// resetHits runs while the world is stopped.
func (c *Chan) resetHits() { c.hits = 0 }

// Snapshot must not be called until after Close: the call order its
// callers keep says nothing else runs then.
func (c *Chan) Snapshot() int { return c.state }

// Peek has no such comment: reported.
func (c *Chan) Peek() int {
	return c.state // want `c.state is documented as guarded by mu`
}

// Drain's comment names the lock without explaining anything: reported.
func (c *Chan) Drain() {
	// Empty the peers; Add takes c.mu.
	c.peers = nil // want `c.peers is documented as guarded by mu`
}

func (c *Chan) Hits() int64 {
	return c.hits // want `c.hits is accessed with sync/atomic elsewhere`
}

// Registrar's register runs only for RegisterService, whose doc keeps a
// call order ("must be called before invoking Serve"): its write is not
// concurrent with the readers, and Services is not reported. Its twin
// Routes is written by addRoute, called by AddRoute, whose doc says
// nothing: reported.
type Registrar struct {
	mu       sync.Mutex
	services map[string]int
	routes   map[string]int
	serving  bool
}

// RegisterService adds a service. It must be called before invoking Serve.
func (g *Registrar) RegisterService(name string) { g.register(name) }

func (g *Registrar) register(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.services[name]++
	g.services = map[string]int{name: 1}
}

// AddRoute adds a route.
func (g *Registrar) AddRoute(name string) { g.addRoute(name) }

func (g *Registrar) addRoute(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.routes = map[string]int{name: 1}
}

func (g *Registrar) Serve() {
	g.mu.Lock()
	g.serving = true
	g.mu.Unlock()
}

func (g *Registrar) Services() int { return len(g.services) }

func (g *Registrar) Routes() int {
	return len(g.routes) // want `g.routes is read here with no lock held`
}

// Relay's doc says Start runs before its other methods: Start's unlocked
// write sets the object up and is not reported. Resize, which the doc
// does not name, is.
//
// Callers need to call Start before calling other methods.
type Relay struct {
	mu    sync.Mutex
	peers map[string]int // guarded by mu
	size  int            // guarded by mu
}

func (r *Relay) Start() {
	r.peers = map[string]int{}
}

func (r *Relay) Add(k string) {
	r.mu.Lock()
	r.peers[k]++
	r.size++
	r.mu.Unlock()
}

func (r *Relay) Resize(n int) {
	r.size = n // want `r.size is documented as guarded by mu`
}

// PluginClient's readers document when they may be called: Version "is
// only valid after Start() is called", Reason is "not safe to call until
// the done channel has been closed". The author keeps that order, and
// neither is reported (go-plugin's Client.NegotiatedVersion, lib/pq's
// ListenerConn.Err). Port's doc says nothing: reported.
type PluginClient struct {
	l       sync.Mutex
	version int
	reason  error
	port    int
}

func (c *PluginClient) Start(v, p int, err error) {
	c.l.Lock()
	defer c.l.Unlock()
	c.version = v
	c.reason = err
	c.port = p
}

// Version returns the negotiated version. This is only valid after
// Start() is called.
func (c *PluginClient) Version() int { return c.version }

// Reason returns why the client stopped. It is not safe to call this
// function until the done channel has been closed.
func (c *PluginClient) Reason() error { return c.reason }

// Port returns the port.
func (c *PluginClient) Port() int {
	return c.port // want `c.port is read here with no lock held \(in exported PluginClient.Port\)`
}
