// Package main: what a factory makes is told apart by the call that
// makes it (pointsclone.go). A client and a server connection each get
// a generator from the one helper newGen, and each connection's run
// loop touches its own: no race. Two loops on one connection race.
package main

type gen struct {
	n int // bumped by each connection's own run loop
	t int // ticked by two loops on one connection
}

func newGen() *gen { return &gen{} }

type conn struct {
	g    *gen
	done chan struct{}
}

func newClient() *conn { return &conn{g: newGen(), done: make(chan struct{})} }

func newServer() *conn { return &conn{g: newGen(), done: make(chan struct{})} }

func (c *conn) run() {
	c.g.n++
	close(c.done)
}

func (c *conn) tick() {
	c.g.t++ // want `gen.t written in conn.tick \(goroutine started in main: conn.tick\) races with its write in conn.tick`
}

func main() {
	cl, sv := newClient(), newServer()
	go cl.run()
	go sv.run()
	<-cl.done
	<-sv.done

	shared := newClient()
	go shared.tick()
	go shared.tick()
}
