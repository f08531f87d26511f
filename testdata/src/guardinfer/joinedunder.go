package guardinfer

import "sync"

// Goroutines joined under their starter's lock: while the starter holds
// p.mu from the go statement to wg.Wait(), nothing else that takes p.mu
// runs, so the goroutines' reads of p.loggers are ordered with the writes
// made under p.mu. Prometheus' scrape manager reloads its pools this way.

type Pools struct {
	mu      sync.Mutex
	loggers map[string]string // guarded by mu
	targets map[string]string // guarded by mu
	jobs    map[string]string // guarded by mu
}

func (p *Pools) SetLogger(k, v string) {
	p.mu.Lock()
	p.loggers[k] = v
	p.targets[k] = v
	p.jobs[k] = v
	p.mu.Unlock()
}

// Reload reads p.loggers in goroutines it joins before it unlocks: silent.
func (p *Pools) Reload(names []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.loggers[n]
		}()
	}
	wg.Wait()
}

// ReloadEarly unlocks before the join: the goroutines' reads race with
// SetLogger. Reported.
func (p *Pools) ReloadEarly(names []string) {
	p.mu.Lock()
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.loggers[n] // want `p.loggers is documented as guarded by mu`
		}()
	}
	p.mu.Unlock()
	wg.Wait()
}

// ResetAll writes from goroutines started in a loop: each holds the
// starter's lock as much as the others, so they are not ordered among
// themselves. Reported.
func (p *Pools) ResetAll(names []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.targets[n] = "" // want `p.targets is documented as guarded by mu`
		}()
	}
	wg.Wait()
}

// Detach never joins its goroutine: it outlives the lock. Reported.
func (p *Pools) Detach(n string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	go func() {
		_ = p.jobs[n] // want `p.jobs is documented as guarded by mu`
	}()
}

// A field only one goroutine's method touches: recvLoop is called once,
// from a goroutine its starter runs once on the object it made; nextID
// never leaves that goroutine, whatever its comment says. Silent. The
// twin starts its loop once per worker on one object: reported.
type WatchStream struct {
	mu     sync.Mutex // protects watchers and nextID
	nextID int
	reqs   chan string
}

func (w *WatchStream) recvLoop() {
	for range w.reqs {
		w.mu.Lock()
		w.nextID++
		w.mu.Unlock()
		println(w.nextID)
	}
}

func NewWatchStream() *WatchStream {
	w := &WatchStream{reqs: make(chan string)}
	go func() { w.recvLoop() }()
	return w
}

type WorkStream struct {
	mu     sync.Mutex // protects nextID
	nextID int
	reqs   chan string
}

func (w *WorkStream) recvLoop() {
	for range w.reqs {
		w.mu.Lock()
		w.nextID++
		w.mu.Unlock()
		println(w.nextID) // want `w.nextID is documented as guarded by mu`
	}
}

func NewWorkStream(workers int) *WorkStream {
	w := &WorkStream{reqs: make(chan string)}
	for range workers {
		go func() { w.recvLoop() }()
	}
	return w
}
