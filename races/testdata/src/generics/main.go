// Package main checks that a race in a generic type's methods is one
// finding, however many instantiations the program makes: the pair of
// source lines is reported once.
package main

import (
	"sync"
	"time"
)

type Box[T any] struct {
	mu   sync.Mutex
	val  T
	done bool
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.val = v
	b.done = true
	b.mu.Unlock()
}

func (b *Box[T]) Done() bool {
	return b.done // want `Box.done read in Box.Done .* races with its write in Box.Set`
}

func use[T any](v T) {
	b := &Box[T]{}
	go b.Set(v)
	_ = b.Done()
}

func main() {
	use(1)
	use("one")
	time.Sleep(time.Millisecond)
}
