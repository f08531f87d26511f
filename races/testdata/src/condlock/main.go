// Package main: a lock taken through a sync.Locker, a sync.Cond's L
// (Knative's work queue, GoKer's serving 6472): what it guards is not a
// race, and its deferred release ends it, so what follows the call is
// not guarded.
package main

import (
	"fmt"
	"sync"
)

type Queue struct {
	cond  *sync.Cond
	items []int
}

func (q *Queue) Add(x int) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.items = append(q.items, x) // under cond.L: silent
}

func (q *Queue) Get() int {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if len(q.items) == 0 {
		return 0
	}
	x := q.items[0]
	q.items = q.items[1:]
	return x
}

type state struct{ pending int }

func worker(q *Queue, s *state) {
	q.Get()
	s.pending-- // want `state.pending written in worker \(goroutine started in main: worker\) races with its (read|write) in main`
}

func main() {
	q := &Queue{cond: sync.NewCond(&sync.Mutex{})}
	s := &state{}
	go worker(q, s)
	q.Add(1)
	s.pending++
	fmt.Println(s.pending)
}
