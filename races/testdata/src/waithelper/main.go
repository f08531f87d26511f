// Package main checks a wait made inside a helper: reconnect calls
// waitForExits, whose every return comes after wg.Wait(), before it
// rebinds the reader the old read loop used; so the rebind comes after
// everything that loop did before its Done. A helper that waits only on
// some paths orders nothing.
package main

import (
	"sync"
	"time"
)

type reader struct {
	buf []byte
	off int
}

type Conn struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	r     *reader
	quick bool
}

func (c *Conn) readLoop() {
	defer c.wg.Done()
	for c.r.off < len(c.r.buf) {
		c.r.off++ // want `reader.off written in Conn.readLoop .* races with its write in Conn.hastyReconnect`
	}
}

func (c *Conn) start() {
	c.wg.Add(1)
	go c.readLoop()
}

// waitForExits waits for the read loop on every way out.
func (c *Conn) waitForExits() {
	c.mu.Lock()
	c.mu.Unlock()
	c.wg.Wait()
}

// maybeWait waits only when the connection is not quick.
func (c *Conn) maybeWait() {
	if !c.quick {
		c.wg.Wait()
	}
}

func (c *Conn) reconnect() {
	c.waitForExits()
	c.r.buf = make([]byte, 8)
	c.r.off = 0
	c.start()
}

func (c *Conn) hastyReconnect() {
	c.maybeWait()
	c.r.off = 1
	c.start()
}

func main() {
	c := &Conn{r: &reader{buf: make([]byte, 4)}}
	c.start()
	go c.reconnect()
	d := &Conn{r: &reader{buf: make([]byte, 4)}}
	d.start()
	go d.hastyReconnect()
	time.Sleep(time.Millisecond)
}
