// Command handlerreq: handlers rewrite the request net/http hands them
// and set the headers of their own response: each request has its own,
// so none of that is reported. The count of hits per path the handlers
// keep in a map they share, written with no lock, is.
package main

import (
	"net/http"
	"strings"
)

type Stats struct {
	hits map[string]int
}

func (s *Stats) count(w http.ResponseWriter, r *http.Request) {
	r.URL.Path = strings.TrimSuffix(r.URL.Path, "/")
	s.hits[r.URL.Path]++ // want `Stats.hits\[\] written in Stats.count .* races with its (read|write) in`
	w.Header().Set("X-Hits", "1")
}

func main() {
	s := &Stats{hits: map[string]int{}}
	http.HandleFunc("/count", s.count)
	http.HandleFunc("/trim", func(w http.ResponseWriter, r *http.Request) {
		r.Host = strings.ToLower(r.Host)
		r.URL.RawQuery = ""
		w.WriteHeader(http.StatusNoContent)
	})
	http.ListenAndServe("127.0.0.1:0", nil)
}
