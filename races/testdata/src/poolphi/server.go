// Package poolphi takes a request context from a pool, or makes one when
// the pool is empty, and sets it up before anything else can have it
// (fasthttp's acquireCtx): either way the object is the taker's alone, so
// its set-up races with no exported method on some other context. A
// context's own exported setter, called on a shared one, still races.
package poolphi

import (
	"net"
	"sync"
)

type Server struct {
	mu      sync.Mutex
	conns   int
	ctxPool sync.Pool
}

type RequestCtx struct {
	mu   sync.Mutex
	c    net.Conn
	done bool
}

func (s *Server) acquireCtx(c net.Conn) *RequestCtx {
	v := s.ctxPool.Get()
	var ctx *RequestCtx
	if v == nil {
		ctx = new(RequestCtx)
	} else {
		ctx = v.(*RequestCtx)
	}
	ctx.c = c // no race: the pool's or a new one, nobody else's yet
	return ctx
}

// ServeConn serves one connection with a context of its own.
func (s *Server) ServeConn(c net.Conn) {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
	ctx := s.acquireCtx(c)
	ctx.Finish()
	s.ctxPool.Put(ctx)
}

// Conn reads the connection under the context's lock.
func (ctx *RequestCtx) Conn() net.Conn {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	return ctx.c
}

// Finish marks the context done under its lock.
func (ctx *RequestCtx) Finish() {
	ctx.mu.Lock()
	ctx.done = true
	ctx.mu.Unlock()
}

// Rebind replaces the connection with no lock.
func (ctx *RequestCtx) Rebind(c net.Conn) {
	ctx.c = c // want `RequestCtx.c written in RequestCtx.Rebind .* races with its read in RequestCtx.Conn`
}
