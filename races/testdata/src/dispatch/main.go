// Package main: a call through an interface reaches, in each context,
// only the methods of the types its receiver can be there. The call
// graph resolves send's e.encode() to every encoder the program hands
// send; work only ever hands it a request of its own, so work's
// goroutines never run the shared encoder's encode (sarama's
// encode(e encoder) reaching every message type).
package main

import "sync"

type encoder interface{ encode() }

type request struct{ n int }

func (r *request) encode() { r.n++ }

type counter struct{ n int }

func (c *counter) encode() { c.n++ } // want `counter.n written in counter.encode \(main: main → send → counter.encode\) races with its write in counter.encode \(goroutine started in main: main func literal 2 → send → counter.encode\); no lock`

var global = &counter{}

func send(e encoder) { e.encode() }

func work() { send(&request{}) }

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	go func() { send(global) }()
	send(global)
	report()
	startAll()
	wg.Wait()
}
