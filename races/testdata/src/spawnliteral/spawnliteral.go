// Command spawnliteral: a handler makes a connection and starts its read
// loop in a function literal (gws's examples: go func() {
// socket.ReadLoop() }()). Each handler call makes its own connection and
// hands it to the one goroutine it starts, so two read loops never share
// one: their writes are not reported. A variable the accept loop sets
// again after starting the goroutine (one cell for every round) is
// shared: an earlier loop may load a later connection.
package main

import (
	"bufio"
	"net/http"
)

type Conn struct {
	br    *bufio.Reader
	n     int
	frame []byte
}

func (c *Conn) ReadLoop() {
	for {
		b, err := c.br.ReadByte()
		if err != nil {
			c.br = nil
			return
		}
		c.n++
		c.frame = append(c.frame[:0], b)
	}
}

func upgrade(w http.ResponseWriter) (*Conn, error) {
	nc, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return nil, err
	}
	_ = nc
	return &Conn{br: rw.Reader}, nil
}

type Session struct {
	id   int
	seen int
}

func (s *Session) run() {
	s.seen++ // want `Session.seen written in Session.run .* races with its write in Session.run`
}

func main() {
	http.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		socket, err := upgrade(w)
		if err != nil {
			return
		}
		go func() {
			socket.ReadLoop()
		}()
	})
	go func() {
		var s *Session
		for i := 0; ; i++ {
			s = &Session{id: i} // want `s written in main func literal 2 .* races with its read in main func literal 2 func literal 1`
			go func() { s.run() }()
		}
	}()
	http.ListenAndServe("127.0.0.1:0", nil)
}
