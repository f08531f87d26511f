// Command deferstop: a connection handler makes its client, defers its
// Stop, sets it up and only then adds it to the registry other
// goroutines look clients up in (mochi-mqtt's attachClient). The
// deferred Stop runs once the handler returns, after the set-up: it
// publishes nothing before it, so the set-up is not reported. A write
// after the client is registered is.
package main

import (
	"net"
	"sync"
)

type Client struct {
	ID       string
	Listener string
	Seen     int
	out      chan []byte
	stopped  chan struct{}
}

type Registry struct {
	mu      sync.RWMutex
	clients map[string]*Client
}

func (r *Registry) Add(cl *Client) {
	r.mu.Lock()
	r.clients[cl.ID] = cl
	r.mu.Unlock()
}

// Each reads every registered client.
func (r *Registry) Each(f func(*Client)) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, cl := range r.clients {
		f(cl)
	}
}

var reg = &Registry{clients: map[string]*Client{}}

func (cl *Client) Stop() {
	reg.mu.Lock()
	delete(reg.clients, cl.ID)
	reg.mu.Unlock()
	close(cl.stopped)
}

func (cl *Client) writeLoop(c net.Conn) {
	for b := range cl.out {
		c.Write(b)
	}
}

func handle(c net.Conn, listener string) {
	cl := &Client{out: make(chan []byte), stopped: make(chan struct{})}
	go cl.writeLoop(c)
	defer cl.Stop()
	cl.ID = c.RemoteAddr().String()
	cl.Listener = listener
	reg.Add(cl)
	cl.Seen++ // want `Client.Seen written in handle .* races with its read in main func literal`
	<-cl.stopped
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return
	}
	go func() {
		for {
			reg.Each(func(cl *Client) { _ = cl.Listener + cl.ID; _ = cl.Seen })
		}
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go handle(c, "tcp")
	}
}
