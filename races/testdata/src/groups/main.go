// Package main: a handler makes a connection per request and starts a
// goroutine for it. Each request's connection is its own: the requests
// do not share it, though one allocation makes them all and the fields
// are reached through loads. What the handler and the goroutine it
// started for that request share is reported, and so is what every
// request shares.
package main

import "net/http"

type stats struct{ hits int }

type buffer struct{ n int }

type conn struct {
	buf   *buffer // owned: every store puts a buffer the storing request made
	out   *buffer // owned, and shared with the request's pump goroutine
	stats *stats  // not owned: every connection gets the one global
}

var global = &stats{}

func newConn() *conn {
	return &conn{buf: &buffer{}, out: &buffer{}, stats: global}
}

// grow replaces the buffer with a new one: a store that keeps the field
// owned.
func (c *conn) grow() {
	if c.buf.n > 8 {
		c.buf = &buffer{}
	}
	c.buf.n++
}

// pump runs once per request, started by its handler: it shares that
// request's connection, and only that one (the finding lists no other
// pump's write).
func pump(c *conn) {
	c.out.n++ // want `buffer.n written in pump \(goroutine started in handle: pump\) races with its write in handle \(handler /: handle\); no lock`
}

func handle(w http.ResponseWriter, r *http.Request) {
	c := newConn()
	c.grow()
	c.stats.hits++ // want `stats.hits written in handle \(handler /: handle\) races with its write in handle`
	go pump(c)
	c.out.n++
}

func main() {
	http.HandleFunc("/", handle)
	_ = http.ListenAndServe("localhost:0", nil)
}
