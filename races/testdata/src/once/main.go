// Package main: sync.Once. The function handed to Do runs once, and
// every Do returns after it: what it writes is read safely after a Do on
// the same Once, directly or in a helper that always makes one. A read
// that no Do comes before races with it.
package main

import (
	"fmt"
	"sync"
)

type conf struct {
	once sync.Once
	vals map[string]string
	n    int
}

func (c *conf) get(k string) string {
	c.once.Do(func() {
		c.vals = map[string]string{"a": "b"} // want `conf.vals written in conf.get func literal 1 \(main: main → conf.get → conf.get func literal 1\) races with its read in conf.peek`
	})
	return c.vals[k] // after Do: ordered
}

// load makes the Do; count reads after calling it.
func (c *conf) load() { c.once.Do(c.fill) }

func (c *conf) fill() { c.n = len(c.vals) + 3 }

func (c *conf) count() int {
	c.load()
	return c.n // after load's Do: ordered
}

// peek reads vals with no Do before it (its caller makes none either).
func (c *conf) peek() int { return len(c.vals) }

func main() {
	c := &conf{}
	for i := 0; i < 3; i++ {
		go func() { fmt.Println(c.get("a"), c.count()) }()
	}
	go func() { fmt.Println(c.peek()) }() // no Do first
	fmt.Println(c.get("a"), c.count())
}
