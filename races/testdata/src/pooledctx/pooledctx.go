// Package pooledctx is a web framework in small: ServeHTTP, a handler
// many requests run at once, takes a context from a pool for each
// request. Handed to route, and to the error handler, a method value the
// framework keeps in a field and calls through it (DefaultErrorHandler's
// receiver bound, its other parameters passed), it is still the
// request's own: two requests never set the same context's path. Inspect keeps its request's context where every
// request can reach it before it sets the path: a race with another
// request's read.
package pooledctx

import (
	"errors"
	"net/http"
	"sync"
)

type Context interface {
	Path() string
	SetPath(string)
}

type context struct {
	path string
}

func (c *context) Path() string     { return c.path }
func (c *context) SetPath(p string) { c.path = p }

type Echo struct {
	pool         sync.Pool
	ErrorHandler func(error, Context)
}

func New() *Echo {
	e := &Echo{}
	e.pool.New = func() any { return &context{} }
	e.ErrorHandler = e.DefaultErrorHandler
	return e
}

// DefaultErrorHandler sends the request to the error page.
func (e *Echo) DefaultErrorHandler(err error, c Context) {
	c.SetPath("/error")
}

func route(c Context) {
	if c.Path() == "" {
		c.SetPath("/")
	}
}

func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*context)
	c.SetPath(r.URL.Path)
	var ctx Context = c
	route(ctx)
	if r.Method == "" {
		e.ErrorHandler(errors.New("no method"), ctx)
	}
	e.pool.Put(c)
}

var (
	lastMu sync.Mutex
	last   Context
)

// Inspect is a handler that keeps its request's context where every
// request can reach it, then sets its path; it prints the last one's.
type Inspect struct{}

func (Inspect) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := &context{}
	lastMu.Lock()
	last = c
	lastMu.Unlock()
	c.path = r.URL.Path // want `context.path written in Inspect.ServeHTTP .* races with its read in Inspect.ServeHTTP`
	lastMu.Lock()
	l := last
	lastMu.Unlock()
	println(l.(*context).path)
}
