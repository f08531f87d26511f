package guarantee

import (
	"sync"
	"time"
)

// ---- closures: called in place, bound to a local, deferred, go, escaping ----

func closureCalledBad(c *C) {
	func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}()
}

func closureCalledGood(c *C) {
	c.mu.Lock()
	func() { c.n++ }()
	c.mu.Unlock()
}

func closureLocalBad(c *C) {
	inc := func() {
		c.n++ // want `c.n written while c.mu is not held`
	}
	c.mu.Lock()
	c.mu.Unlock()
	inc()
}

func closureLocalGood(c *C) {
	inc := func() { c.n++ }
	c.mu.Lock()
	inc()
	c.mu.Unlock()
}

func closureLocalGoBad(c *C) {
	inc := func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
	c.mu.Lock()
	go inc()
	c.mu.Unlock()
}

func closureDeferredBad(c *C) {
	c.mu.Lock()
	defer func() {
		c.n++ // want `c.n written while c.mu is not held`
	}()
	c.mu.Unlock()
}

func closureDeferredGood(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() { c.n++ }() // runs first, with c.mu still held
}

func closureGoBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	go func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}()
}

func closureGoGood(c *C) {
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	}()
}

var callbacks []func()

func closureStoredBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	callbacks = append(callbacks, func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}

func closureStoredGood(c *C) {
	callbacks = append(callbacks, func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	})
}

func closureReturnedBad(c *C) func() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return func() int {
		return c.n // want `c.n read while c.mu is not known to be held`
	}
}

func closureAfterFuncBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	time.AfterFunc(time.Second, func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}

var once sync.Once

// sync.Once.Do runs its function before it returns: the caller's locks
// are the ones that count.
func closureOnceBad(c *C) {
	once.Do(func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}

func closureOnceGood(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	once.Do(func() { c.n++ })
}

func nestedClosureBad(c *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	func() {
		go func() {
			func() {
				c.n++ // want `c.n written while c.mu is not known to be held`
			}()
		}()
	}()
}
