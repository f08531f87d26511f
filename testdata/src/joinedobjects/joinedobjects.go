// Package joinedobjects covers accesses without the lock to an object the
// function made, after the goroutines it handed the object to are joined
// (or before they start): they happen before or after everything those
// goroutines did, so they cannot race. Objects of unknown origin, objects
// stored where other goroutines can reach them, and accesses while a
// goroutine may still run stay reported.
package joinedobjects

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (c *Counter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

var current *Counter

// Sum joins its workers with a WaitGroup before it reads the total.
func Sum(workers int) int {
	c := &Counter{}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.add()
		}()
	}
	wg.Wait()
	return c.n
}

// SumDone joins its worker by a receive on the channel it closes.
func SumDone() int {
	c := &Counter{}
	c.n = 10 // before the goroutine starts
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.add()
	}()
	<-done
	return c.n
}

// ---- reported ----

// ReadEarly reads before the join: the workers may still be adding.
func ReadEarly() int {
	c := &Counter{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.add()
	}()
	n := c.n // want `c.n read while c.mu is not known to be held`
	wg.Wait()
	return n
}

// Caller's object: other goroutines of the caller's may hold it.
func CallersObject(c *Counter) int {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.add()
	}()
	wg.Wait()
	return c.n // want `c.n read while c.mu is not known to be held`
}

// Published: stored in a package variable, any goroutine can reach it.
func Published() int {
	c := &Counter{}
	current = c
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.add()
	}()
	wg.Wait()
	return c.n // want `c.n read while c.mu is not known to be held`
}

// Never joined: the goroutine may outlive the read.
func NotJoined() int {
	c := &Counter{}
	go c.add()
	return c.n // want `c.n read while c.mu is not known to be held`
}
