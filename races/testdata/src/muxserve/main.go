// Package muxserve: a handler registered on a ServeMux of the program's
// own runs only once a server the program starts serves that mux
// (mochi-mqtt's Websocket listener: Init registers the handler on its own
// mux, and Serve, run later in another goroutine, calls ListenAndServe
// after the server's hooks are set up). What comes before every serve
// call of the mux happens before its handlers run; what comes after a
// serve call that may already be running them does not.
package main

import (
	"net"
	"net/http"
	"sync"
)

type Hook struct{ name string }

type LateHook struct{ calls int }

type BothHook struct{ name string }

type LeakHook struct{ n int }

type Server struct {
	mu    sync.Mutex
	hooks []*Hook
	late  []*LateHook
	both  []*BothHook
	srv   *http.Server
	srv2  *http.Server
	mux3  *http.ServeMux
	srv3  *http.Server
	leak  []*LeakHook
	srv4  *http.Server
}

// Init registers the handlers, each on a mux of its own, before anything
// serves them.
func (s *Server) Init() {
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.handle)
	s.srv = &http.Server{Addr: ":0", Handler: mux}

	mux2 := http.NewServeMux()
	mux2.HandleFunc("/late", s.handleLate)
	s.srv2 = &http.Server{Addr: ":0", Handler: mux2}

	s.mux3 = http.NewServeMux()
	s.mux3.HandleFunc("/both", s.handleBoth)
	s.srv3 = &http.Server{Addr: ":0", Handler: s.mux3}

	// mux4 is handed to net/http, under the default mux, which main
	// serves from the start: its handler may run from then on.
	mux4 := http.NewServeMux()
	mux4.HandleFunc("/leak", s.handleLeak)
	s.srv4 = &http.Server{Addr: ":0", Handler: mux4}
	http.Handle("/api/", http.StripPrefix("/api", mux4))
}

func (s *Server) handleLeak(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	leak := s.leak
	s.mu.Unlock()
	for _, h := range leak {
		_ = h.n
	}
}

// ServeLeak sets up before its own server serves the mux, but the
// default mux serves it already.
func (s *Server) ServeLeak(hooks []*LeakHook) {
	for _, h := range hooks {
		h.n = 1 // want `LeakHook.n written in Server.ServeLeak .* races with its read in Server.handleLeak`
		s.mu.Lock()
		s.leak = append(s.leak, h)
		s.mu.Unlock()
	}
	s.srv4.ListenAndServe()
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hooks := s.hooks
	s.mu.Unlock()
	for _, h := range hooks {
		_ = h.name // set before ListenAndServe started serving: not reported
	}
}

func (s *Server) handleLate(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	late := s.late
	s.mu.Unlock()
	for _, h := range late {
		_ = h.calls
	}
}

func (s *Server) handleBoth(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	both := s.both
	s.mu.Unlock()
	for _, h := range both {
		_ = len(h.name)
	}
}

// Serve sets the hooks up, then serves: the handler runs after the set-up.
func (s *Server) Serve(hooks []*Hook) {
	for _, h := range hooks {
		h.name = "hook"
		s.mu.Lock()
		s.hooks = append(s.hooks, h)
		s.mu.Unlock()
	}
	s.srv.ListenAndServe()
}

// ServeLate starts serving first, then writes what the handler reads.
func (s *Server) ServeLate(hooks []*LateHook) {
	go s.srv2.ListenAndServe()
	for _, h := range hooks {
		s.mu.Lock()
		s.late = append(s.late, h)
		s.mu.Unlock()
		h.calls++ // want `LateHook.calls written in Server.ServeLate .* races with its read in Server.handleLate`
	}
}

// ServeBoth serves one mux from two places; the first starts before the
// write.
func (s *Server) ServeBoth(l net.Listener, hooks []*BothHook) {
	go http.Serve(l, s.mux3)
	for _, h := range hooks {
		s.mu.Lock()
		s.both = append(s.both, h)
		s.mu.Unlock()
		h.name = "both" // want `BothHook.name written in Server.ServeBoth .* races with its read in Server.handleBoth`
	}
	s.srv3.ListenAndServe()
}

func main() {
	s := &Server{}
	s.Init()
	go s.Serve([]*Hook{{}, {}})
	go s.ServeLate([]*LateHook{{}})
	go s.ServeBoth(nil, []*BothHook{{}})
	go http.ListenAndServe(":0", nil)
	go s.ServeLeak([]*LeakHook{{}})
	select {}
}
