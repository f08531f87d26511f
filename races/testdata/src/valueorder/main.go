// Package main: order that depends on a value, which the analysis does
// not follow (docs/rules/races.md, "What it cannot see"). The watcher
// reads b under the lock, and only once it has seen it set uses it after
// releasing the lock: the use is after the write (through the lock and
// the value seen), but the analysis pairs the unlocked use with the
// write. This finding is false; the want pins it, so that the day it
// goes, the documentation is updated with it.
package main

import "sync"

var mu sync.Mutex

type Balancer struct{ n int }

func (b *Balancer) Handle() { _ = b.n }

type wrapper struct{ b *Balancer }

func (w *wrapper) watch() {
	for i := 0; i < 10; i++ {
		mu.Lock()
		if w.b != nil {
			mu.Unlock()
			w.b.Handle() // want `wrapper.b read in wrapper.watch \(goroutine started in main: wrapper.watch\) races with its write in main \(main: main\)`
		} else {
			mu.Unlock()
		}
	}
}

func main() {
	w := &wrapper{}
	go w.watch()
	mu.Lock()
	w.b = &Balancer{} // reported at the read, which lacks the lock
	mu.Unlock()
}
