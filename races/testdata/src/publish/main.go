// Package main: an object is published when something another goroutine
// can reach holds it, not when it is stored into another object its maker
// has not handed out either. A constructor that builds a part holding
// the whole, and sets the whole up before registering it, writes fields
// nobody else can see yet (etcd's newBackend); what it writes after the
// registration is seen.
package main

import (
	"fmt"
	"sync"
)

type part struct {
	whole *whole
	n     int
}

type whole struct {
	p     *part
	ready bool
}

// newPart keeps w only in the part it returns.
func newPart(w *whole) *part { return &part{whole: w} }

var (
	mu       sync.Mutex
	registry []*whole
)

func register(w *whole) {
	mu.Lock()
	registry = append(registry, w)
	mu.Unlock()
}

func newWhole() *whole {
	w := &whole{}
	w.p = newPart(w)
	w.ready = true // set up before anyone else has w
	register(w)
	w.ready = false // want `whole.ready written in newWhole \(main: main → newWhole\) races with its read in watch`
	return w
}

func watch() {
	mu.Lock()
	defer mu.Unlock()
	for _, w := range registry {
		fmt.Println(w.ready)
	}
}

func main() {
	go watch()
	newWhole()
}
