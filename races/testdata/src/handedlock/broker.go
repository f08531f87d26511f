// Package handedlock: a method takes its lock and starts a goroutine
// that releases it (sarama's Broker.Open: b.lock.Lock(); go
// withRecover(func() { defer b.lock.Unlock(); ... })). The goroutine
// runs holding the lock its spawner handed over, so its writes are no
// race with the methods that take the lock; a read without it is.
package handedlock

import (
	"net"
	"sync"
)

func withRecover(fn func()) {
	defer func() { _ = recover() }()
	fn()
}

// Broker is used from many goroutines: its methods lock its mutex.
type Broker struct {
	lock sync.Mutex
	addr string
	conn net.Conn
	err  error
}

// Open connects in the background, holding the lock until it is done.
func (b *Broker) Open() {
	b.lock.Lock()
	go withRecover(func() {
		defer b.lock.Unlock()
		b.conn, b.err = net.Dial("tcp", b.addr)
	})
}

// Connected waits for Open's goroutine by taking the lock.
func (b *Broker) Connected() bool {
	b.lock.Lock()
	defer b.lock.Unlock()
	return b.conn != nil && b.err == nil
}

// Close takes the lock too.
func (b *Broker) Close() error {
	b.lock.Lock()
	defer b.lock.Unlock()
	if b.conn == nil {
		return nil
	}
	err := b.conn.Close()
	b.conn = nil
	return err
}

// LastError reads without the lock: a race with Open's goroutine.
func (b *Broker) LastError() error {
	return b.err // want `Broker.err read in Broker.LastError \(exported method: Broker.LastError\) races with its write in Broker.Open func literal 1`
}

// Pinger starts a goroutine while holding its lock and releases the
// lock itself: nothing is handed over, and the goroutine's write races
// with the locked read.
type Pinger struct {
	mu    sync.Mutex
	count int
}

func (p *Pinger) Start() {
	p.mu.Lock()
	go func() {
		p.count++ // want `Pinger.count written in Pinger.Start func literal 1 \(goroutine started in Pinger.Start: Pinger.Start func literal 1\) races with its read in Pinger.Count`
	}()
	p.mu.Unlock()
}

func (p *Pinger) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}
