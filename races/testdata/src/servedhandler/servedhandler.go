// Package main: a handler handed straight to the server, not registered
// on a mux: http.ListenAndServe(addr, h) and srv.ListenAndServe() with
// srv.Handler set run its ServeHTTP for each request, many at once,
// after what comes before the call.
package main

import (
	"net/http"
	"sync"
)

type counter struct {
	mu    sync.Mutex
	hits  int
	last  string
	limit int
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.hits++ // want `counter.hits written in counter.ServeHTTP \(handler counter.ServeHTTP: counter.ServeHTTP\) races with its read in counter.ServeHTTP`
	c.mu.Unlock()
	if c.hits > c.limit {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	c.last = r.URL.Path // want `counter.last written in counter.ServeHTTP \(handler counter.ServeHTTP: counter.ServeHTTP\) races with its write in counter.ServeHTTP`
}

type status struct {
	mu    sync.Mutex
	state string
}

func (s *status) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Write([]byte(s.state))
}

// hits is served by a server made in another function: its handler has
// no root, and the race on n is missed (docs/rules/races.md, "What it
// cannot see").
type hits struct {
	n int
}

func (h *hits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.n++ // a race, missed: the server is made in newServer
}

func newServer(h http.Handler) *http.Server {
	return &http.Server{Addr: ":8082", Handler: h}
}

func main() {
	c := &counter{}
	c.limit = 100 // set-up before the server starts: not reported
	go http.ListenAndServe(":8080", c)

	s := &status{}
	s.state = "starting" // before the server starts
	srv := &http.Server{Addr: ":8081", Handler: s}
	go srv.ListenAndServe()
	go newServer(&hits{}).ListenAndServe()
	s.mu.Lock()
	s.state = "ready" // under the handler's lock: not reported
	s.mu.Unlock()
	select {}
}
