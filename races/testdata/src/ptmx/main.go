// Package main is the race this project started from, unannotated: a
// session's terminal, set by Attach from one HTTP handler, cleared by
// Detach from another, read by Resize and SendKeys from others, with no
// lock in common.
package main

import (
	"net/http"
	"os"
	"sync"
)

type Session struct {
	mu    sync.Mutex // guards name only
	name  string
	ptmx  *os.File
	sizes []int
}

func (s *Session) Attach() {
	f, _ := os.Open("/dev/ptmx")
	s.ptmx = f // want `Session.ptmx written in Session.Attach \(handler /attach: main func literal 1 → Session.Attach\) races with its (read|write) in Session.(Detach|Resize|SendKeys)`
}

func (s *Session) Detach() {
	if s.ptmx != nil {
		s.ptmx.Close()
		s.ptmx = nil // want `Session.ptmx written in Session.Detach .* races with`
	}
}

func (s *Session) Resize(rows int) {
	if s.ptmx == nil {
		return
	}
	s.mu.Lock()
	s.sizes = append(s.sizes, rows) // under mu in every handler: no race
	s.mu.Unlock()
}

func (s *Session) SendKeys(b []byte) {
	if p := s.ptmx; p != nil {
		p.Write(b)
	}
}

func (s *Session) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

func main() {
	s := &Session{name: "one"} // set up before any handler runs: no race
	s.name = "first"
	http.HandleFunc("/attach", func(w http.ResponseWriter, r *http.Request) { s.Attach() })
	http.HandleFunc("/detach", func(w http.ResponseWriter, r *http.Request) { s.Detach() })
	http.HandleFunc("/resize", func(w http.ResponseWriter, r *http.Request) { s.Resize(24) })
	http.HandleFunc("/keys", func(w http.ResponseWriter, r *http.Request) { s.SendKeys(nil) })
	http.HandleFunc("/name", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(s.Name())) })
	http.ListenAndServe(":8080", nil)
}
