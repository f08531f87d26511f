// Package main: a map written from handler goroutines (every request runs
// its handler in a goroutine of its own).
package main

import (
	"net/http"
	"sync"
)

type Server struct {
	mu    sync.Mutex
	hits  map[string]int
	seen  map[string]bool
	names map[string]string
}

// rename writes names; list ranges over it and takes its length, which
// read its entries, in other requests' goroutines.
func (s *Server) rename(w http.ResponseWriter, r *http.Request) {
	s.names[r.URL.Path] = r.URL.RawQuery // want `Server.names\[\] written in Server.rename \(handler /rename: Server.rename\) races with its read in Server.list \(handler /list: Server.list\)`
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	out := make([]string, 0, len(s.names))
	for k := range s.names {
		out = append(out, k)
	}
	_ = out
}

func (s *Server) count(w http.ResponseWriter, r *http.Request) {
	s.hits[r.URL.Path]++ // want `Server.hits\[\] written in Server.count \(handler /count: Server.count\) races with its (read|write) in Server.count`
	s.mu.Lock()
	s.seen[r.URL.Path] = true // under mu: no race
	s.mu.Unlock()
}

func main() {
	s := &Server{hits: map[string]int{}, seen: map[string]bool{}, names: map[string]string{}}
	http.HandleFunc("/count", s.count)
	http.HandleFunc("/rename", s.rename)
	http.HandleFunc("/list", s.list)
	http.ListenAndServe(":8080", nil)
}
