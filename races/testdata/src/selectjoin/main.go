// Package main: a goroutine started and waited for inside a call that
// returns before the caller goes on (etcd's OpenBackend: a select that
// takes the backend or, after a timeout, waits for it anyway) is ordered
// before what the caller does next.
package main

import (
	"fmt"
	"time"
)

type backend struct{ tx int }

func newBackend() *backend {
	b := &backend{}
	b.tx = 1
	return b
}

var current *backend

func openBackend() *backend {
	opened := make(chan *backend)
	go func() {
		current = newBackend()
		opened <- current
	}()
	select {
	case be := <-opened:
		return be
	case <-time.After(10 * time.Second):
		fmt.Println("slow")
	}
	return <-opened
}

var last *backend

// openMaybe gives up after the timeout: the goroutine may still be
// writing last when the caller reads it.
func openMaybe() *backend {
	opened := make(chan *backend, 1)
	go func() {
		last = newBackend() // want `selectjoin.last written in openMaybe func literal 1 \(goroutine started in openMaybe: openMaybe func literal 1\) races with its read in main`
		opened <- last
	}()
	select {
	case be := <-opened:
		return be
	case <-time.After(time.Second):
		return nil
	}
}

// notifier publishes err by closing c; a select case that received from
// c reads it after the close (etcd's LinearizableReadNotify).
type notifier struct {
	c   chan struct{}
	err error
}

func (n *notifier) notify(err error) {
	n.err = err // want `notifier.err written in notifier.notify .* races with its read in notifier.drain`
	close(n.c)
}

func (n *notifier) wait(stop chan struct{}) error {
	select {
	case <-n.c:
		return n.err
	case <-stop:
		return nil
	}
}

// drain's non-blocking select waits for nothing: the read can come first.
func (n *notifier) drain() error {
	select {
	case <-n.c:
	default:
	}
	return n.err
}

func main() {
	be := openBackend()
	fmt.Println(be.tx, current)
	openMaybe()
	fmt.Println(last)
	n := &notifier{c: make(chan struct{})}
	go n.notify(fmt.Errorf("done"))
	fmt.Println(n.wait(make(chan struct{})))
	m := &notifier{c: make(chan struct{})}
	go m.notify(nil)
	fmt.Println(m.drain())
}
