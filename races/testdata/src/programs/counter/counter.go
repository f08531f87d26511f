// Package counter is used by two programs: one shares its counters
// between goroutines, the other never does. Each main package is a
// program of its own, so what one does with the objects the shared
// constructor makes says nothing of the other's.
package counter

type Counter struct{ n int }

func New() *Counter { return &Counter{} }

func (c *Counter) Add() { c.n++ } // want `Counter.n written in Counter.Add \(main: main → Counter.Add\) races with its write in Counter.Add \(goroutine started in main: Counter.Add\); no lock`

// Bump is what the other program calls: no finding.
func (c *Counter) Bump() { c.n += 2 }
