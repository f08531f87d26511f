// Package main checks a wait skipped only when there is nothing to wait
// for: `if s.wg != nil { s.wg.Wait() }` waits on every path where a
// goroutine was started with that WaitGroup, so what follows it comes
// after everything those goroutines did before their Done. A wait
// skipped for any other reason orders nothing.
package main

import (
	"context"
	"sync"
	"time"
)

type Session struct {
	mu     sync.Mutex
	wg     *sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	state  int
}

// Attach starts a reader that is in the WaitGroup, and a goroutine that
// detaches when it is told to.
func (s *Session) Attach(quit chan struct{}) {
	s.wg = &sync.WaitGroup{}
	s.wg.Add(1)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.done = make(chan struct{})
	go func() {
		defer s.wg.Done()
		<-s.ctx.Done()
	}()
	go func() {
		defer close(s.done)
		s.state = 1
	}()
	go func() {
		<-quit
		s.Detach()
	}()
}

// Detach waits for the reader, when there is one, before it clears the
// context the reader reads; and for the closer, when there is one,
// before it sets the state the closer wrote.
func (s *Session) Detach() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	if s.wg != nil {
		s.wg.Wait()
		s.wg = nil
	}
	s.ctx = nil
	if s.done != nil {
		<-s.done
	}
	s.state = 2
}

type Pump struct {
	wg      *sync.WaitGroup
	verbose bool
	n       int
}

// Start's goroutine counts in the WaitGroup; Stop waits for it only when
// verbose, so its write can race with the count.
func (p *Pump) Start(quit chan struct{}) {
	p.wg = &sync.WaitGroup{}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.n++ // want `Pump.n written in Pump.Start func literal 1 .* races with its write in Pump.Stop`
	}()
	go func() {
		<-quit
		p.Stop()
	}()
}

func (p *Pump) Stop() {
	if p.verbose {
		p.wg.Wait()
	}
	p.n = 0
}

func main() {
	s := &Session{}
	q := make(chan struct{})
	s.Attach(q)
	p := &Pump{}
	p.Start(q)
	time.Sleep(time.Millisecond)
	close(q)
}
