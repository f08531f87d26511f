// Package references writes its guarded map and slice in place, so a
// reference to their contents taken under the lock is not a snapshot;
// the escape rule reports it when it is returned or used after the unlock
// in the same function, and follows it nowhere else.
package references

import "sync"

type S struct {
	mu sync.Mutex
	s  []int          //guard:by mu
	m  map[string]int //guard:by mu
}

func (c *S) set() {
	c.mu.Lock()
	c.s[0] = 1
	c.m["a"] = 1
	c.mu.Unlock()
}

var (
	kept  []int
	keptM map[string]int
)

func keep(s []int) { kept = s }

func passedOn(c *S) {
	c.mu.Lock()
	keep(c.s) // not reported: the guarded slice passed to a function that keeps it
	c.mu.Unlock()
}

func storedElsewhere(c *S) {
	c.mu.Lock()
	keptM = c.m // not reported: the guarded map stored where others reach it
	c.mu.Unlock()
}

func sent(c *S, ch chan map[string]int) {
	c.mu.Lock()
	ch <- c.m // not reported: nor sent on a channel
	c.mu.Unlock()
}

func captured(c *S) func() {
	c.mu.Lock()
	m := c.m
	c.mu.Unlock()
	return func() { m["x"] = 1 } // not reported: nor captured by a closure that runs later
}

func later() {
	kept[0] = 1 // the write itself: to kept, which has no guard
}

// Reported: the reference returned, and the local used after the unlock.
func (c *S) all() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m // want `returns c.m, the guarded map itself`
}

func usedAfter(c *S) {
	c.mu.Lock()
	m := c.m // want `m keeps a reference into guarded c.m that is used at line 69 after c.mu is released`
	c.mu.Unlock()
	m["x"] = 1
}
