// Package main: goroutines started through a helper that runs, in a
// goroutine of its own, the function it is handed (nats-server's
// startGoRoutine). Each call of the helper starts its own goroutine: one
// that runs once and touches what nobody else does is not a race with
// itself or with the others; two that write one field are.
package main

import (
	"fmt"
	"sync"
)

type Server struct {
	mu      sync.Mutex
	running bool
	wg      sync.WaitGroup

	accepts int // only the accept loop touches it
	routes  int // only the route loop touches it
	last    string
}

// startGoRoutine runs f in a goroutine of its own while the server runs.
func (s *Server) startGoRoutine(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
	return true
}

func (s *Server) acceptLoop() {
	for i := 0; i < 3; i++ {
		s.accepts++
	}
	s.last = "accept" // want `Server.last written in Server.acceptLoop \(goroutine started in Server.Start by Server.startGoRoutine: Server.acceptLoop\) races with its write in Server.Start func literal 1`
}

func (s *Server) routeLoop() {
	for i := 0; i < 3; i++ {
		s.routes++
	}
}

func (s *Server) Start() {
	s.running = true // before any goroutine starts
	s.startGoRoutine(s.acceptLoop)
	s.startGoRoutine(s.routeLoop)
	s.startGoRoutine(func() {
		s.last = "closure"
	})
}

func main() {
	s := &Server{}
	s.Start()
	s.wg.Wait()
	fmt.Println(s.accepts, s.routes, s.last)
}

// parallelize runs work in n goroutines at once (Kubernetes'
// ParallelizeUntil): what it is handed runs many times at the same
// time, though each call of parallelize is made once.
func parallelize(n int, work func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(i)
		}()
	}
	wg.Wait()
}

type Tally struct{ hits int }

func (t *Tally) count() {
	parallelize(4, func(int) {
		t.hits++ // want `Tally.hits written in Tally.count func literal 1 \(goroutine started in Tally.count by parallelize: Tally.count func literal 1\) races with its (read|write) in Tally.count func literal 1`
	})
}

func init() {
	(&Tally{}).count()
}
