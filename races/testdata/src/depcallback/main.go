// Package depcallback: each of many goroutines connects, and connect
// hands a method value of its new connection to a dependency that keeps
// it and runs it later in goroutines of its own (nats.go's Subscribe),
// then sets the connection up and starts its ping timer (stan.go's
// Connect). The dependency's runs of onMsg are not seen; handing it the
// method value publishes the connection to nothing the analysis
// follows, so each connect's set-up happens before its own timer's
// callback, on its own connection. A write after the timer starts still
// races with the callback.
package main

import (
	"example.com/subs"
	"sync"
	"time"
)

type conn struct {
	mu       sync.Mutex
	inbox    string
	interval time.Duration
	sub      *subs.Sub
	timer    *time.Timer
	pings    int
	late     bool
}

func connect(name string) *conn {
	c := conn{}
	c.sub = subs.Subscribe(name, c.onMsg)
	c.inbox = name // set-up before the timer starts: not reported
	c.interval = time.Second
	c.mu.Lock()
	c.timer = time.AfterFunc(c.interval, c.ping)
	c.mu.Unlock()
	c.late = true // want `conn.late written in connect \(goroutine started in main: publisher → connect\) races with its read in conn.ping`
	return &c
}

func (c *conn) onMsg(string) {
	c.mu.Lock()
	c.pings = 0
	c.mu.Unlock()
}

func (c *conn) ping() {
	c.mu.Lock()
	c.pings++
	c.mu.Unlock()
	_ = c.inbox
	_ = c.interval
	_ = c.late
}

func publisher(wg *sync.WaitGroup) {
	defer wg.Done()
	connect("pub")
}

func subscriber(wg *sync.WaitGroup) {
	defer wg.Done()
	connect("sub")
}

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go publisher(&wg)
		go subscriber(&wg)
	}
	wg.Wait()
}
