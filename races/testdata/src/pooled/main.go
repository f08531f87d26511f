// Command pooled: each handler goroutine takes a buffer from a sync.Pool,
// fills it and puts it back. What Get returns is nobody else's until it
// is put back, as a new allocation is: handlers started in a loop do not
// race on their buffers. A buffer kept in a shared variable after Get is
// published like any object, and races.
package main

import (
	"fmt"
	"sync"
)

type buffer struct {
	data []byte
	n    int
}

var pool = sync.Pool{New: func() any { return &buffer{} }}

// get is a pool's usual wrapper: reset, then hand out.
func get() *buffer {
	b := pool.Get().(*buffer)
	b.n = 0
	return b
}

// acquire makes one when the pool is empty.
func acquire() *buffer {
	v := pool.Get()
	if v == nil {
		return &buffer{}
	}
	return v.(*buffer)
}

var last *buffer

func handle(p []byte, wg *sync.WaitGroup) {
	defer wg.Done()
	b := get()
	b.data = append(b.data[:0], p...)
	b.n = len(p)
	c := acquire()
	c.n = b.n
	pool.Put(c)
	pool.Put(b)
}

func keep(p []byte, wg *sync.WaitGroup) {
	defer wg.Done()
	b := get()
	last = b     // want `pooled.last written in keep .* races with its (read|write) in (keep|peek)`
	b.n = len(p) // want `buffer.n written in keep .* races with its read in peek`
}

func peek(wg *sync.WaitGroup) {
	defer wg.Done()
	if l := last; l != nil {
		fmt.Println(l.n)
	}
}

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(3)
		go handle([]byte("x"), &wg)
		go keep([]byte("y"), &wg)
		go peek(&wg)
	}
	wg.Wait()
	fmt.Println(last != nil)
}
