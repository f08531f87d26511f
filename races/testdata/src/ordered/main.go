// Package main is silent: every access below is ordered by how the
// goroutines start and end, or made on an object nobody else can reach
// yet, or under a lock both sides hold.
package main

import (
	"sync"
	"time"
)

type Worker struct {
	mu      sync.Mutex
	name    string
	jobs    []int
	results []int
	ticks   int
}

// NewWorker builds a worker nobody else can see yet.
func NewWorker(name string) *Worker {
	w := &Worker{}
	w.name = name
	w.jobs = make([]int, 0, 8)
	return w
}

// Start sets up, then starts the goroutine: the set-up happens before.
func (w *Worker) Start(done chan struct{}) {
	w.jobs = append(w.jobs, 1)
	go w.run(done)
}

func (w *Worker) run(done chan struct{}) {
	defer close(done)
	for _, j := range w.jobs {
		w.mu.Lock()
		w.results = append(w.results, j*2)
		w.mu.Unlock()
	}
}

func (w *Worker) Results() []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.results
}

func (w *Worker) tick() {
	w.mu.Lock()
	w.ticks++
	w.mu.Unlock()
}

func main() {
	w := NewWorker("a")
	done := make(chan struct{})
	w.Start(done)
	_ = w.Results()
	<-done
	w.jobs = nil // after the goroutine closed done: ordered

	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.tick()
		}()
	}
	wg.Wait()
	w.ticks = 0 // after every goroutine is joined

	t := time.AfterFunc(time.Second, w.tick)
	t.Stop()

	// A worker made afresh each time round, set up, then started: the
	// next round's set-up is of another worker.
	for i := 0; i < 2; i++ {
		p := newPeer()
		p.id = i
		go p.run()
	}
}

type peer struct{ id int }

func newPeer() *peer { return &peer{} }

func (p *peer) run() { _ = p.id }

// A WaitGroup waited on by a sibling: the first goroutine writes before
// its deferred Done, the second reads after Wait on the same WaitGroup.
type session struct {
	wg  *sync.WaitGroup
	out string
}

func (s *session) attach() {
	s.wg = &sync.WaitGroup{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.out = "copied"
	}()
	go func() {
		s.wg.Wait()
		_ = s.out
	}()
}

func init() { (&session{}).attach() }
