// Package deferown: a function literal called or deferred where it is
// made runs in the goroutine instance that made it, so what it captures
// is that instance's, as an argument would be (gin's recovery
// middleware defers a literal over the request's Context, which
// ServeHTTP took from a sync.Pool for this request alone). What it
// captures that every request shares is still shared.
package deferown

import (
	"net/http"
	"sync"
)

type HandlerFunc func(*Context)

type Context struct {
	Request  *http.Request
	handlers []HandlerFunc
	index    int8
}

func (c *Context) Next() {
	c.index++
	for c.index < int8(len(c.handlers)) {
		c.handlers[c.index](c)
		c.index++
	}
}

// Abort runs in the deferred literal on the request's own Context: not
// reported.
func (c *Context) Abort() { c.index = 63 }

type Engine struct {
	mu       sync.Mutex
	handlers []HandlerFunc
	pool     sync.Pool
	panics   int
}

func New() *Engine {
	e := &Engine{}
	e.pool.New = func() any { return &Context{} }
	e.Use(e.Recovery())
	return e
}

func (e *Engine) Use(h HandlerFunc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.handlers = append(e.handlers, h)
}

func (e *Engine) Recovery() HandlerFunc {
	return func(c *Context) {
		defer func() {
			if recover() != nil {
				c.Abort()
				e.panics++ // want `Engine.panics written in Engine.Recovery func literal 1 func literal 1 .* races with its (read|write) in Engine.Recovery func literal 1 func literal 1`
			}
		}()
		c.Next()
	}
}

func (e *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := e.pool.Get().(*Context)
	c.Request = req
	e.mu.Lock()
	c.handlers = e.handlers
	e.mu.Unlock()
	c.index = -1
	c.Next()
	e.pool.Put(c)
}
