// Package selfstart: a server's Serve sets up its handlers, then starts
// HandleConn in a goroutine of its own for each connection it accepts
// (gliderlabs/ssh). HandleConn is exported, but the library starts it
// itself, after the set-up: it is entered there, not as an entry point
// running at any time, so what Serve set up first is not reported. Handle
// replaces the handler under the lock at any time, and the connection
// goroutines read it with no lock: that is.
package selfstart

import (
	"net"
	"sync"
)

type Handler func(net.Conn)

type Server struct {
	mu       sync.Mutex
	Handler  Handler
	handlers map[string]Handler
	conns    map[net.Conn]bool
}

// Handle sets the handler, under the lock.
func (srv *Server) Handle(h Handler) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	srv.Handler = h
}

func (srv *Server) ensureHandlers() {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.handlers == nil {
		srv.handlers = map[string]Handler{"default": func(c net.Conn) { c.Close() }}
	}
}

// Serve sets up the handlers, then serves each connection in a goroutine
// of its own.
func (srv *Server) Serve(l net.Listener) error {
	srv.ensureHandlers()
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go srv.HandleConn(c)
	}
}

// HandleConn serves one connection.
func (srv *Server) HandleConn(c net.Conn) {
	srv.mu.Lock()
	if srv.conns == nil {
		srv.conns = map[net.Conn]bool{}
	}
	srv.conns[c] = true
	srv.mu.Unlock()
	h := srv.handlers["default"]
	if srv.Handler != nil { // want `Server.Handler read in Server.HandleConn .* races with its write in Server.Handle`
		h = srv.Handler
	}
	h(c)
}
