// Package main: a hook's Init sets the hook up and then starts the
// hook's collector goroutine on it. main adds one hook itself and the
// server's goroutine adds the ones its configuration lists, so the go
// statement is reached from two goroutines; but each call of Init sets up
// the hook it was given before it starts that hook's goroutine, the only
// goroutine with that hook, so the set-up is not concurrent with it,
// whichever goroutine first reached the go statement. A field Init
// writes after the goroutine is started is reported, and so is a
// session's reconnect: a goroutine Open started calls Open again on the
// same session while the listener the first Open started still reads it.
package main

import (
	"sync"
	"time"
)

type options struct{ interval int }

type hook struct {
	opts   *options
	ticker *time.Ticker
	runs   int
}

func newHook() *hook { return &hook{} }

func (h *hook) Init(o *options) {
	if o == nil {
		o = &options{interval: 1}
	}
	h.opts = o // before this hook's goroutine is started: silent
	h.ticker = time.NewTicker(time.Duration(h.opts.interval) * time.Millisecond)
	go h.collect()
	h.runs = 1 // after the goroutine is started: reported at the read
}

func (h *hook) collect() {
	for range h.ticker.C {
		println(h.opts.interval, h.runs) // want `hook.runs read in hook.collect \(goroutine started in hook.Init: hook.collect\) races with its write in hook.Init \(main: main → server.add → hook.Init\)`
	}
}

type server struct {
	mu         sync.Mutex
	hooks      []*hook
	configured []*hook
}

func (s *server) add(h *hook, o *options) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h.Init(o)
	s.hooks = append(s.hooks, h)
}

func (s *server) serve() {
	for _, h := range s.configured {
		s.add(h, nil)
	}
}

type session struct {
	gateway string
}

func (s *session) Open() {
	s.gateway = "wss://gateway" // want `session.gateway written in session.Open \(goroutine started in session.Open: session.heartbeat → session.Open\) races with its read in session.listen`
	go s.listen()
	go s.heartbeat()
}

func (s *session) listen() {
	time.Sleep(time.Millisecond)
	println(s.gateway)
}

func (s *session) heartbeat() {
	time.Sleep(time.Millisecond)
	s.Open() // a reconnect: the same session, set up again
}

func main() {
	s := &server{configured: []*hook{newHook()}}
	s.add(newHook(), &options{interval: 2})
	go s.serve()
	sess := &session{}
	sess.Open()
	time.Sleep(10 * time.Millisecond)
}
