package guardinfer

import "sync"

// Publish, then close: the session's error is written (under its own lock)
// before the shutdown channel is closed, by Close itself or by fail, which
// then calls Close; Accept reads it only in the select case that receives
// from that channel (yamux's Session.shutdownErr). Closing a channel
// happens before the receive it completes, so the bare read comes after
// every write. Flusher's writer is a helper of the goroutine that closes its
// done channel when it returns; Wait reads after receiving from it.
// Tunnel is the twin: Reopen writes the error again with no close after
// it, and the read is reported.
type MuxSession struct {
	errMu    sync.Mutex
	closeMu  sync.Mutex
	closed   bool
	err      error
	shutdown chan struct{}
	accept   chan int
}

func (s *MuxSession) Accept() (int, error) {
	select {
	case n := <-s.accept:
		return n, nil
	case <-s.shutdown:
		return 0, s.err
	}
}

func (s *MuxSession) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.errMu.Lock()
	if s.err == nil {
		s.err = errShutdown
	}
	s.errMu.Unlock()
	close(s.shutdown)
	return nil
}

func (s *MuxSession) fail(err error) {
	s.errMu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.errMu.Unlock()
	s.Close()
}

func (s *MuxSession) Recv(n int) {
	if n < 0 {
		s.fail(errShutdown)
		return
	}
	s.accept <- n
}

type shutdownError struct{}

func (shutdownError) Error() string { return "shutdown" }

var errShutdown error = shutdownError{}

type Flusher struct {
	mu    sync.Mutex
	count int
	done  chan struct{}
}

func (p *Flusher) Start() {
	go p.loop()
}

func (p *Flusher) loop() {
	defer close(p.done)
	for i := 0; i < 10; i++ {
		p.step()
	}
}

func (p *Flusher) step() {
	p.mu.Lock()
	p.count++
	p.mu.Unlock()
}

func (p *Flusher) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

func (p *Flusher) Wait() int {
	<-p.done
	return p.count
}

type Tunnel struct {
	mu   sync.Mutex
	err  error
	down chan struct{}
}

func (t *Tunnel) Fail(err error) {
	t.mu.Lock()
	t.err = err
	t.mu.Unlock()
	close(t.down)
}

func (t *Tunnel) Reopen() {
	t.mu.Lock()
	t.err = nil
	t.mu.Unlock()
}

func (t *Tunnel) Err() error {
	<-t.down
	return t.err // want `t.err is read here with no lock held \(in exported Tunnel.Err\), and written at closeorder.go:\d+ with t.mu held \(in exported Tunnel.Reopen\)`
}
