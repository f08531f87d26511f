// Command connloop: a server's accept loop makes a client for each
// connection, numbers it and starts its serve goroutine (ldapserver's
// Serve). Every serve goroutine sets up and uses its own client: two of
// them never touch one client, so that is not reported. The server's
// sweeper reaches every client through the list it keeps, and its write
// races with the serve goroutines'.
package main

import (
	"bufio"
	"net"
	"sync"
	"time"
)

type client struct {
	numero  int
	rwc     net.Conn
	br      *bufio.Reader
	closing bool
	out     chan []byte
	idle    time.Duration
}

type Server struct {
	mu      sync.Mutex
	clients []*client
}

func (s *Server) newClient(rwc net.Conn) (*client, error) {
	return &client{rwc: rwc, br: bufio.NewReader(rwc)}, nil
}

func (c *client) serve() {
	c.closing = false
	c.out = make(chan []byte, 8)
	go func() {
		for b := range c.out {
			c.rwc.Write(b)
		}
	}()
	for !c.closing {
		line, err := c.br.ReadBytes('\n')
		if err != nil {
			c.closing = true
			break
		}
		if c.idle > time.Minute { // want `client.idle read in client.serve .* races with its write in Server.sweep`
			break
		}
		c.out <- line
	}
	close(c.out)
}

// sweep marks every client idle, through the list.
func (s *Server) sweep() {
	for range time.Tick(time.Second) {
		s.mu.Lock()
		for _, c := range s.clients {
			c.idle += time.Second
		}
		s.mu.Unlock()
	}
}

func (s *Server) Serve(ln net.Listener) {
	go s.sweep()
	i := 0
	for {
		rw, err := ln.Accept()
		if err != nil {
			return
		}
		cli, err := s.newClient(rw)
		if err != nil {
			continue
		}
		i++
		cli.numero = i
		go cli.serve()
		s.mu.Lock()
		s.clients = append(s.clients, cli)
		s.mu.Unlock()
	}
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return
	}
	(&Server{}).Serve(ln)
}
