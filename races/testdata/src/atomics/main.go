// Package main: sync/atomic. An atomic add on a plain field races with a
// plain copy of the struct that holds it (GoKer's Istio 8214), not with
// another atomic access; a flag stored atomically once set-up is done,
// and loaded before anything uses what set-up wrote, orders the two.
package main

import (
	"fmt"
	"sync/atomic"
)

type Stats struct{ Writes uint64 }

type cache struct {
	stats   Stats
	name    string
	started atomic.Bool
}

func (c *cache) set() {
	atomic.AddUint64(&c.stats.Writes, 1) // want `Stats.Writes written in cache.set \(goroutine started in main: cache.set\) races with its read in cache.snapshot \(main: main → cache.snapshot\)`
}

func (c *cache) snapshot() Stats { return c.stats }

func (c *cache) count() uint64 { return atomic.LoadUint64(&c.stats.Writes) }

func (c *cache) start() {
	c.setup()
	c.started.Store(true)
}

func (c *cache) setup() { c.name = "primary" } // before the flag is stored

func (c *cache) use() {
	if !c.started.Load() {
		return
	}
	fmt.Println(c.name) // after the flag is loaded
}

// serve starts a goroutine only once the flag is loaded: the go
// statement orders what the goroutine does after the load.
func (c *cache) serve() {
	if !c.started.Load() {
		return
	}
	go func() { fmt.Println(c.name) }()
}

func main() {
	c := &cache{}
	go c.set()
	go func() { fmt.Println(c.count()) }()
	fmt.Println(c.snapshot())

	go c.start()
	go c.use()
	go c.serve()
}
