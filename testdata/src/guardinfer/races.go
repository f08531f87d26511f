package guardinfer

import (
	"os"
	"sync"
)

// Races in unannotated code with no guard to infer: a field written under
// a lock in one thread and read with none in another. Threads are the
// exported methods of a type that holds a lock (callers may run them at
// once), goroutines, and a function after it starts a goroutine with its
// object.

// PtySession is the bug guardvet started from: Attach sets the PTY and
// starts a goroutine reading it, Detach clears it under detachMutex, and
// Resize, SendKeys and Close read it with no lock at all.
type PtySession struct {
	detachMutex sync.Mutex
	ptmx        *os.File
}

func (s *PtySession) Attach(f *os.File) {
	s.ptmx = f
	go s.pump()
}

func (s *PtySession) pump() {
	buf := make([]byte, 64)
	for {
		if _, err := s.ptmx.Read(buf); err != nil { // want `s.ptmx is read here with no lock held \(in the goroutine started at races.go:\d+\), and written at races.go:\d+ with s.detachMutex held \(in exported PtySession.Detach\); the two can run at once: lock s.detachMutex here too`
			return
		}
	}
}

func (s *PtySession) Detach() {
	s.detachMutex.Lock()
	defer s.detachMutex.Unlock()
	if s.ptmx != nil {
		s.ptmx.Close()
		s.ptmx = nil
	}
}

func (s *PtySession) Resize() error {
	if s.ptmx == nil {
		return nil
	}
	return s.ptmx.Sync()
}

func (s *PtySession) SendKeys(b []byte) error {
	_, err := s.ptmx.Write(b)
	return err
}

func (s *PtySession) Close() error {
	if s.ptmx != nil {
		return s.ptmx.Close()
	}
	return nil
}

// FixedSession is PtySession with every access under one lock, through
// helpers that hold it: silent.
type FixedSession struct {
	mu   sync.Mutex
	ptmx *os.File
}

func (s *FixedSession) Attach(f *os.File) {
	s.mu.Lock()
	s.ptmx = f
	s.mu.Unlock()
	go s.pump()
}

func (s *FixedSession) pty() *os.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ptmx
}

func (s *FixedSession) pump() {
	buf := make([]byte, 64)
	for {
		if _, err := s.pty().Read(buf); err != nil {
			return
		}
	}
}

func (s *FixedSession) Detach() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptmx != nil {
		s.ptmx.Close()
		s.ptmx = nil
	}
}

func (s *FixedSession) Resize() error {
	if f := s.pty(); f != nil {
		return f.Sync()
	}
	return nil
}

func (s *FixedSession) SendKeys(b []byte) error {
	_, err := s.pty().Write(b)
	return err
}

// Catalog: written under the lock in Add, ranged over bare in dump, which
// a goroutine runs.
type Catalog struct {
	mu    sync.Mutex
	items map[string]int
}

func (r *Catalog) Add(k string) {
	r.mu.Lock()
	r.items[k]++
	r.mu.Unlock()
}

func (r *Catalog) dump() int {
	n := 0
	for _, v := range r.items { // want `r.items is read here with no lock held \(in the goroutine started at races.go:\d+\), and written at races.go:\d+ with r.mu held \(in exported Catalog.Add\)`
		n += v
	}
	return n
}

func (r *Catalog) Start() { go r.dump() }

// LockedCatalog ranges under the lock: silent.
type LockedCatalog struct {
	mu    sync.Mutex
	items map[string]int
}

func (r *LockedCatalog) Add(k string) {
	r.mu.Lock()
	r.items[k]++
	r.mu.Unlock()
}

func (r *LockedCatalog) dump() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, v := range r.items {
		n += v
	}
	return n
}

func (r *LockedCatalog) Start() { go r.dump() }

// Poller: its goroutine reads interval under the lock, and the
// constructor writes it bare after starting the goroutine.
type Poller struct {
	mu       sync.Mutex
	interval int
}

func NewPoller() *Poller {
	p := &Poller{}
	go p.loop()
	p.interval = 5 // want `p.interval is written here with no lock held \(in NewPoller, after it starts a goroutine with the object\), and read at races.go:\d+ with p.mu held \(in the goroutine started at races.go:\d+\)`
	return p
}

func (p *Poller) loop() {
	for {
		p.mu.Lock()
		_ = p.interval
		p.mu.Unlock()
	}
}

// SetupPoller sets interval before the go statement: silent.
type SetupPoller struct {
	mu       sync.Mutex
	interval int
}

func NewSetupPoller() *SetupPoller {
	p := &SetupPoller{}
	p.interval = 5
	go p.loop()
	return p
}

func (p *SetupPoller) loop() {
	for {
		p.mu.Lock()
		_ = p.interval
		p.mu.Unlock()
	}
}

// Configured is set up by an exported setter and read under the lock:
// an unlocked write outside a starter is taken as setup, and silent.
type Configured struct {
	mu    sync.Mutex
	limit int
}

func (c *Configured) SetLimit(n int) { c.limit = n }

func (c *Configured) Over(n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return n > c.limit
}
