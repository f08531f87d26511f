package guardinfer

import (
	"sync"
	"sync/atomic"
	"time"
)

// Concurrency context: an unlocked access is reported only where another
// goroutine can reach the object. Each negative case below was reported
// before the rule it tests; each positive twin still is.

// ctxHook and logObj take the object somewhere guardvet cannot see: a test
// hook, a logger.
var (
	ctxHook func(any)
	logObj  func(string, any)
)

// ---- Constructors that hand the object to calls before any goroutine. ----

type PeerConn struct {
	mu   sync.Mutex // guards following
	flow int
	br   int
	rest int
}

func NewPeerConn() *PeerConn {
	cc := &PeerConn{}
	if ctxHook != nil {
		ctxHook(cc) // a test ctxHook: a call, not a store anywhere
	}
	logObj("creating conn", cc)
	cc.flow = 1 // before cc is shared: silent
	cc.br = 2
	go cc.readLoop()
	cc.rest = 3 // want `cc.rest is documented as guarded by mu`
	return cc
}

func (cc *PeerConn) readLoop() {
	cc.mu.Lock()
	cc.flow++
	cc.br++
	cc.rest++
	cc.mu.Unlock()
}

var peerConns []*PeerConn

// NewRegistered stores the new object where others reach it: after the
// store it is shared.
func NewRegistered() *PeerConn {
	cc := &PeerConn{}
	cc.flow = 1
	peerConns = append(peerConns, cc)
	cc.br = 2 // want `cc.br is documented as guarded by mu.*\(and at 1 other site without it: context.go:192\)`
	return cc
}

// ---- A constructor that calls helpers before publishing. ----

type IdleClient struct {
	// mu protects the following fields.
	mu       sync.Mutex
	conns    map[int]bool
	resolver *int
}

func NewIdleClient() *IdleClient {
	c := &IdleClient{}
	ctxHook(c)
	c.initIdle() // before c is shared; enterIdle calls it under c.mu
	go c.run()
	return c
}

func (c *IdleClient) initIdle() {
	c.conns = map[int]bool{}
	c.resolver = new(int)
}

func (c *IdleClient) enterIdle() {
	c.mu.Lock()
	c.initIdle()
	c.mu.Unlock()
}

func (c *IdleClient) run() {
	c.mu.Lock()
	c.conns[1] = true
	c.mu.Unlock()
	c.enterIdle()
}

// An in-place init helper on a field of a new object: its only call is on
// a qstream just allocated.
type wquota struct {
	_ ctxNoCopy
	n int32
}

type ctxNoCopy struct{}

func (*ctxNoCopy) Lock()   {}
func (*ctxNoCopy) Unlock() {}

func (q *wquota) init(n int32) { q.n = n }

func (q *wquota) get() bool { return atomic.AddInt32(&q.n, -1) > 0 }

type qstream struct{ q wquota }

func newQStream() *qstream {
	s := &qstream{}
	s.q.init(5)
	return s
}

// ---- Code after a join. ----

type Tally struct {
	mu sync.Mutex
	n  int // guarded by mu
}

func (t *Tally) Inc() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// CountJoined reads t.n once every worker is joined: silent.
func CountJoined(k int) int {
	t := &Tally{}
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Inc()
		}()
	}
	wg.Wait()
	return t.n
}

// CountDone reads t.n after a receive from the worker's done channel.
func CountDone() int {
	t := &Tally{}
	done := make(chan struct{})
	go func() {
		t.Inc()
		close(done)
	}()
	<-done
	return t.n
}

// CountRacy reads t.n while the workers run.
func CountRacy(k int) int {
	t := &Tally{}
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Inc()
		}()
	}
	n := t.n // want `t.n is documented as guarded by mu.*\(and at 1 other site without it: context.go:205\)`
	wg.Wait()
	return n
}

var onEvent func(func())

// NewWatched registers a callback over cc: it may run on another goroutine
// from then on.
func NewWatched() *PeerConn {
	cc := &PeerConn{}
	onEvent(func() { cc.readLoop() })
	cc.flow = 1 // want `cc.flow is documented as guarded by mu`
	return cc
}

// NewSent hands cc to another goroutine over a channel.
func NewSent(ch chan *PeerConn) {
	cc := &PeerConn{}
	ch <- cc
	cc.br = 1 // reported, one finding per field, with line 58
}

// CountKept: the worker stores t where others reach it, so the join does
// not make t private again.
func CountKept() int {
	t := &Tally{}
	done := make(chan struct{})
	go func() {
		kept = t
		close(done)
	}()
	<-done
	return t.n // reported, one finding per field, with line 172
}

var kept *Tally

// NewFlusher starts a timer whose callback uses w, and stores the timer in
// w in the same statement: the store runs with the callback armed.
type flusher struct {
	mu      sync.Mutex // protects timer and pending
	timer   *time.Timer
	pending bool
}

func (w *flusher) flush() {
	w.mu.Lock()
	w.pending = false
	w.timer = nil
	w.mu.Unlock()
}

func NewFlusher(d time.Duration) *flusher {
	w := &flusher{}
	w.pending = true                     // before the timer: silent
	w.timer = time.AfterFunc(d, w.flush) // want `w.timer is documented as guarded by mu`
	return w
}

// A callback over s stored inside a part of s this function created (the
// server s.srv it just built, not started yet) keeps s private: the
// callback is reachable through s alone. Storing it in a part s did not
// create (a server handed in) shares s.
type ctxServer struct {
	Handler func()
	Conf    *ctxConf
}

type ctxConf struct{ Base func() int }

func newCtxServer(h func()) *ctxServer { return &ctxServer{Handler: h, Conf: &ctxConf{}} }

type Harness struct {
	mu      sync.Mutex // protects the following fields.
	started bool
	srv     *ctxServer
	n       int
}

func (h *Harness) serve() {}

func NewHarness() *Harness {
	h := &Harness{}
	h.srv = newCtxServer(h.serve)
	h.srv.Conf.Base = func() int { return h.n } // stored in h's own new server: h stays private
	h.srv.Handler = h.serve                     // silent, as above
	return h
}

func NewHarnessOn(srv *ctxServer) *Harness {
	h := &Harness{}
	srv.Conf.Base = func() int { return h.n } // srv is not h's: h is shared from here
	h.srv = srv                               // want `h.srv is documented as guarded by mu`
	return h
}

func (h *Harness) Close() {
	h.mu.Lock()
	h.srv = nil
	h.started = false
	h.mu.Unlock()
}

func (h *Harness) Client() *ctxServer {
	return h.srv // reported with NewHarnessOn's store, one finding per field
}

// A method named init initialises its receiver in place: its accesses are
// not evidence, nor reported, even where it runs on an object others can
// already reach (a stream registered before its quota is set, used only
// once its handler starts). Another name gets no such credit.
var qstreams = map[int]*qstream{}

func registerQStream(id int) *qstream {
	s := &qstream{}
	qstreams[id] = s
	s.q.init(5)
	return s
}

type rquota struct {
	_ ctxNoCopy
	n int32
}

func (q *rquota) reset(n int32) {
	q.n = n // want `q.n is accessed with sync/atomic elsewhere`
}

func (q *rquota) get() bool { return atomic.AddInt32(&q.n, -1) > 0 }

type rstream struct{ q rquota }

var rstreams = map[int]*rstream{}

func registerRStream(id int) *rstream {
	s := &rstream{}
	rstreams[id] = s
	s.q.reset(5)
	return s
}
