// Package main sets a transport up in a sync.Once's function and starts
// its listen loop from there (quic-go's Transport.init). Whichever
// goroutine runs the function, it runs once, and what it writes before
// the go statement happens before the loop starts. A write after the Do
// returns is not ordered with the loop.
package main

import "sync"

type Transport struct {
	once   sync.Once
	conn   string
	label  string
	idLen  int
	custom bool
}

func (t *Transport) init() {
	t.once.Do(func() {
		t.conn = "udp" // no race: the loop starts after it, whoever runs this
		t.label = "t"
		if t.custom {
			t.idLen = 8 // on one branch or the other: still before the go statement
		} else {
			t.idLen = 4
		}
		go t.listen()
	})
}

func (t *Transport) listen() {
	for {
		println(t.conn, t.label, t.idLen)
	}
}

func (t *Transport) dial() {
	t.init()
	println(t.conn)
}

func (t *Transport) rename() {
	t.init()
	t.label = "renamed" // want `Transport.label written in Transport.rename \(goroutine started in main: Transport.rename\) races with its read in Transport.listen`
}

func main() {
	t := &Transport{}
	go t.dial()
	go t.dial()
	go t.rename()
	select {}
}
