// Package main: a server's goroutine makes listeners, sets each one up
// (subscribing it to a bus whose goroutine runs its handler from then
// on, and starting its accept loop) and only then
// registers it in the server's listener table under the table's lock;
// main closes every listener it finds in the table, under the same lock.
// A listener main finds there was registered after its set-up, so the
// set-up happens before main's Close reads it. A field written after the
// listener is registered still races, and so does one a listener's
// accept loop writes. A connection's consumers are found the same way,
// through a lookup helper that unlocks in a deferred call: a consumer
// built (a tracker pointing back at it, a handler subscribed to the bus)
// and only then added is set up before the connection's reader uses it.
package main

import (
	"sync"
	"time"
)

type listener struct {
	mu       sync.Mutex
	addr     string
	closed   bool
	late     int
	accepted int
}

func (l *listener) Init(addr string) {
	events.subscribe(l.onEvent)
	go l.accept()
	l.addr = addr // before registration: silent
}

func (l *listener) onEvent() {
	l.mu.Lock()
	l.closed = false
	l.mu.Unlock()
}

type bus struct {
	mu   sync.Mutex
	subs []func()
}

var events = &bus{}

func (b *bus) subscribe(f func()) {
	b.mu.Lock()
	b.subs = append(b.subs, f)
	b.mu.Unlock()
}

func (b *bus) run() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range b.subs {
		f()
	}
}

func (l *listener) accept() {
	l.accepted++ // want `listener.accepted written in listener.accept \(goroutine started in listener.Init: listener.accept\) races with its read in listener.Close`
}

func (l *listener) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	println(l.addr, l.late, l.accepted)
}

type table struct {
	mu sync.RWMutex
	m  map[string]*listener
}

func (t *table) add(id string, l *listener) {
	t.mu.Lock()
	t.m[id] = l
	t.mu.Unlock()
}

func (t *table) closeAll() {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, l := range t.m {
		l.Close()
	}
}

type server struct{ listeners *table }

func (s *server) addListener(id string, l *listener) {
	l.Init(id)
	s.listeners.add(id, l)
	l.late = 1 // want `listener.late written in server.addListener \(goroutine started in main: server.serve → server.addListener\) races with its read in listener.Close \(main: main → table.closeAll → listener.Close\)`
}

func (s *server) serve() {
	for _, id := range []string{"a", "b"} {
		s.addListener(id, &listener{})
	}
}

type conn struct {
	mu       sync.RWMutex
	handlers map[int]*consumer
}

func (c *conn) add(id int, h *consumer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handlers[id] = h
}

func (c *conn) handler(id int) (*consumer, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	h, ok := c.handlers[id]
	return h, ok
}

func (c *conn) readLoop() {
	for i := 0; i < 3; i++ {
		if h, ok := c.handler(i); ok {
			h.received()
		}
	}
}

type tracker struct{ owner *consumer }

type consumer struct {
	mu      sync.Mutex
	id      int
	acks    *tracker
	decoder []byte
	seen    int
}

func (pc *consumer) onEvent() {
	pc.mu.Lock()
	pc.id++
	pc.mu.Unlock()
}

func newConsumer(c *conn, id int) *consumer {
	pc := &consumer{id: id}
	events.subscribe(pc.onEvent)
	pc.acks = &tracker{owner: pc}
	pc.decoder = make([]byte, 16) // before the connection has it: silent
	c.add(id, pc)
	pc.decoder = pc.decoder[:8] // want `consumer.decoder written in newConsumer \(main: main → newConsumer\) races with its read in consumer.received \(goroutine started in main: conn.readLoop → consumer.received\)`
	return pc
}

func (pc *consumer) received() {
	pc.seen++
	println(len(pc.decoder), pc.acks.owner == pc)
}

func main() {
	c := &conn{handlers: map[int]*consumer{}}
	go c.readLoop()
	for i := 0; i < 2; i++ {
		newConsumer(c, i)
	}
	s := &server{listeners: &table{m: map[string]*listener{}}}
	go events.run()
	go s.serve()
	time.Sleep(time.Millisecond)
	s.listeners.closeAll()
}
