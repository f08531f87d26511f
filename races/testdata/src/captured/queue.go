package main

import "fmt"

// A captured queue shortened with a slice of itself: what is stored into
// the variable is made from what it holds, a cycle the ownership of the
// values stored must not follow without end.
type job struct{ done bool }

func finish(js []*job) {
	for _, j := range js {
		j.done = true
	}
}

func drain() {
	queue := []*job{{}, {}}
	show := func() { fmt.Println(len(queue)) }
	for len(queue) > 0 {
		finish(queue)
		queue = queue[1:]
	}
	show()
}

func init() { drain() }
