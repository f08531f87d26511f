// Package main: a dependency's functions have no body here; what they
// return is fresh only where their source says each call allocates it
// (depfresh.go). Goroutines started in a loop each set up a client: on
// one a constructor made for them, no race; on one the dependency
// shares, a race.
package main

import (
	"sync"

	"depfreshlib"
)

func fresh() {
	c := depfreshlib.NewClient("a")
	c.Timeout = 1
	o, err := depfreshlib.Open("b")
	if err == nil {
		o.Timeout = 2
	}
	k := c.Clone()
	k.Timeout = 3
	b := depfreshlib.Blank()
	b.Name = "b"
}

func shared() {
	d := depfreshlib.Default()
	d.Timeout = 4 // want `Client.Timeout written in shared \(goroutine started in main: main func literal 1 → shared\) races with its write in shared`
}

func maybe(own bool) {
	m := depfreshlib.Maybe(own)
	m.Name = "m" // want `Client.Name written in maybe \(goroutine started in main: main func literal 1 → maybe\) races with its read in passed .*\(and 1 more access\)`
}

func passed() {
	p := depfreshlib.Or(nil)
	println(p.Name) // the other side of maybe's finding
}

func indirect() {
	i := depfreshlib.Indirect()
	i.Retries = 5 // want `Client.Retries written in indirect \(goroutine started in main: main func literal 1 → indirect\) races with its write in`
}

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fresh()
			shared()
			maybe(i%2 == 0)
			passed()
			indirect()
		}()
	}
	wg.Wait()
}
