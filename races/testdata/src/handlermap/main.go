// Package main: a map written from handler goroutines (every request runs
// its handler in a goroutine of its own).
package main

import (
	"net/http"
	"sync"
)

type Server struct {
	mu   sync.Mutex
	hits map[string]int
	seen map[string]bool
}

func (s *Server) count(w http.ResponseWriter, r *http.Request) {
	s.hits[r.URL.Path]++ // want `Server.hits\[\] written in Server.count \(handler /count: Server.count\) races with its (read|write) in Server.count`
	s.mu.Lock()
	s.seen[r.URL.Path] = true // under mu: no race
	s.mu.Unlock()
}

func main() {
	s := &Server{hits: map[string]int{}, seen: map[string]bool{}}
	http.HandleFunc("/count", s.count)
	http.ListenAndServe(":8080", nil)
}
