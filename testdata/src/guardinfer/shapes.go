package guardinfer

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Real-world bug shapes and their negative twins. Each negative case is
// built so that, if the exclusion it tests were broken, the field would
// cross the 90% bar and the excluded site would be reported.

// ---- (a) Has() reads the workers map bare; 10 other sites lock. ----

type worker struct{ id int }

type WorkerPool struct {
	mu      sync.Mutex
	workers map[string]*worker
}

func (p *WorkerPool) Start(k string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers[k] = &worker{}
}

func (p *WorkerPool) Stop(k string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.workers, k)
}

func (p *WorkerPool) Get(k string) *worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.workers[k]
}

func (p *WorkerPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.workers)
}

func (p *WorkerPool) Keys() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ks []string
	for k := range p.workers {
		ks = append(ks, k)
	}
	return ks
}

func (p *WorkerPool) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers = map[string]*worker{}
}

func (p *WorkerPool) Replace(k string, w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workers[k] = w
}

func (p *WorkerPool) StopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.workers)
}

func (p *WorkerPool) Count(f func(*worker) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, w := range p.workers {
		if f(w) {
			n++
		}
	}
	return n
}

func (p *WorkerPool) Ensure(k string) {
	p.mu.Lock()
	if p.workers == nil {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
}

// Has is the bug: the map is read while Start or Stop may write it.
func (p *WorkerPool) Has(k string) bool {
	_, ok := p.workers[k] // want `p.workers is accessed with p.mu held at 10 of 11 sites \(e.g. shapes.go:\d+\); here it is not`
	return ok
}

// ---- Field set once in the constructor, read-only afterwards. ----

// Server.addr is written only on the fresh object in NewServer. It is read
// under mu at 9 sites and bare in Addr, but a field never written after
// publication cannot race: silent.
type Server struct {
	mu    sync.Mutex
	addr  string
	conns int
}

func NewServer(addr string) *Server {
	s := &Server{}
	s.addr = addr
	return s
}

func (s *Server) Addr() string { return s.addr }

func (s *Server) log(msg string) { fmt.Println(msg, s.addr) }

func (s *Server) Accept() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns++
	s.log("accepted on")
}

func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = 0
	fmt.Println("closed", s.addr)
}

func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns + len(s.addr)*0
}

func (s *Server) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns--
	fmt.Println("dropped on", s.addr)
}

func (s *Server) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr + " " + strconv.Itoa(s.conns)
}

func (s *Server) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr != "" && s.conns > 0
}

func (s *Server) Limit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns > n {
		fmt.Println("limit on", s.addr)
		s.conns = n
	}
}

func (s *Server) Local() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr == "localhost" || s.conns < 0
}

func (s *Server) Same(o string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr == o
}

// ---- A field confined to one goroutine: no lock at any site. ----

// Pump.pending is only touched by the run loop's goroutine; mu guards
// only done. Nothing to infer for pending.
type Pump struct {
	mu      sync.Mutex
	done    bool
	pending []int
}

func (p *Pump) Start(in <-chan int) { go p.run(in) }

func (p *Pump) run(in <-chan int) {
	for v := range in {
		p.pending = append(p.pending, v)
		if len(p.pending) > 8 {
			p.flush()
		}
	}
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

func (p *Pump) flush() {
	fmt.Println(p.pending)
	p.pending = p.pending[:0]
}

// ---- String() is not special-cased. ----

// Account locks mu at every balance access except in String. docs/rules/guardinfer.md
// documents the decision: debug helpers race like any other code (a %v of
// the object from another goroutine reads balance while Deposit writes it),
// so the unlocked read in String IS reported.
type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
}

func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance -= n
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

func (a *Account) Zero() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = 0
}

func (a *Account) Positive() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance > 0
}

func (a *Account) Double() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance *= 2
}

func (a *Account) Cap(max int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = min(a.balance, max)
}

func (a *Account) Floor() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = max(a.balance, 0)
}

// String reads balance without mu: reported on purpose (see above).
func (a *Account) String() string {
	return "balance " + strconv.Itoa(a.balance) // want `a.balance is accessed with a.mu held at 10 of 11 sites \(e.g. shapes.go:\d+\); here it is not`
}

// ---- A stored closure: its caller, and so its locks, are unknown. ----

// Conn.n is locked at 9 sites. The closure stored in onClose, and the one
// passed to run, run when their (unknown) callers run them: their accesses
// are neither evidence nor reported, so n stays at 9 of 9.
type Conn struct {
	mu      sync.Mutex
	n       int
	onClose func()
}

func (c *Conn) Watch() {
	c.onClose = func() { c.n++ }
}

// Later hands a closure to a function it knows nothing about: that
// closure's caller is unknown too.
func (c *Conn) Later(run func(func())) {
	run(func() { c.n-- })
}

func (c *Conn) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *Conn) Dec() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
}

func (c *Conn) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *Conn) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
}

func (c *Conn) Idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n == 0
}

func (c *Conn) Set(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = v
}

func (c *Conn) Add(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += v
}

func (c *Conn) Busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n > 0
}

func (c *Conn) Half() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n /= 2
}

// ---- time.AfterFunc: the callback runs in a goroutine of its own. ----

// Timer.fired is locked at 9 sites; the AfterFunc callback writes it with
// no lock held, exactly like a go statement would.
type Timer struct {
	mu    sync.Mutex
	fired int
}

func (t *Timer) Arm(d time.Duration) {
	time.AfterFunc(d, func() {
		t.fired++ // want `t.fired is accessed with t.mu held at 9 of 10 sites`
	})
}

func (t *Timer) Fired() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fired
}

func (t *Timer) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fired = 0
}

func (t *Timer) Bump() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fired++
}

func (t *Timer) Any() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fired > 0
}

func (t *Timer) Set(v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fired = v
}

func (t *Timer) Many() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fired > 10
}

func (t *Timer) Dec() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fired--
}

func (t *Timer) Twice() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fired *= 2
}

func (t *Timer) Once() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fired == 1
}
