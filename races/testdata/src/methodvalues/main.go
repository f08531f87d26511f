// Package main hands each connection's packer a method value bound to
// that connection's manager (quic-go's getDestConnID), and starts each
// connection's loop with a closure over it. A call through the method
// value runs the method on the receivers the closures it can be are
// bound to, and a function literal's variables are what its closure
// captured where it was made: the dialed connection's loop touches only
// its own manager, the accepted one's only its own.
package main

type manager struct{ seq int }

func newManager() *manager { return &manager{} }

func (m *manager) next() int {
	m.seq++ // no race: each loop has its own manager
	return m.seq
}

type packer struct{ nextID func() int }

func newPacker(nextID func() int) *packer { return &packer{nextID: nextID} }

func (p *packer) pack() int { return p.nextID() }

type conn struct {
	m    *manager
	p    *packer
	sent int
}

func dial() *conn {
	c := &conn{m: newManager()}
	c.p = newPacker(c.m.next)
	return c
}

func accept() *conn {
	c := &conn{m: newManager()}
	c.p = newPacker(c.m.next)
	return c
}

func (c *conn) run() {
	for {
		c.sent += c.p.pack()
		c.flush()
	}
}

// flush resets the count through a function literal: its c is the
// connection flush was called on.
func (c *conn) flush() {
	reset := func() {
		c.sent = 0 // no race: each loop resets its own connection
	}
	reset()
}

var total int

func main() {
	a, b := dial(), accept()
	go a.run()
	go func() {
		b.run()
	}()
	go func() {
		total++ // want `total written in main func literal 2 \(goroutine started in main: main func literal 2\) races with its read in main`
	}()
	println(total)
}
