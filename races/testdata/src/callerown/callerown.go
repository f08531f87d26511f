// Package callerown: a library's entry points are handed objects of
// their caller's own. A proxy's ServeHTTP rewrites the request it is
// given and the response it makes for it; a registry's Register fills
// in the entry it is handed before it files it under its lock. Each
// call has its own request and its own entry, so none of that is
// reported. Touching an entry after it is filed is: another call can
// look it up by then.
package callerown

import (
	"net/http"
	"sync"
)

type Proxy struct {
	mu      sync.Mutex
	served  int
	Rewrite func(*http.Request)
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.served++
	p.mu.Unlock()
	r.URL.Scheme = "https"
	r.RemoteAddr = ""
	resp := &http.Response{Request: r, StatusCode: 200}
	resp.Header = http.Header{}
	w.WriteHeader(resp.StatusCode)
}

type Entry struct {
	Name  string
	Hits  int
	Owner string
}

type Registry struct {
	mu      sync.Mutex
	entries map[string]*Entry
}

// Register fills e in, then files it.
func (g *Registry) Register(e *Entry, owner string) {
	e.Owner = owner
	e.Hits = 0
	g.mu.Lock()
	g.entries[e.Name] = e
	g.mu.Unlock()
	e.Hits++ // want `Entry.Hits written in Registry.Register .* races with its (read|write) in`
}

// Lookup counts a hit on the entry filed under name.
func (g *Registry) Lookup(name string) *Entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.entries[name]
	if e != nil {
		e.Hits++
	}
	return e
}
