// Package main: objects told apart where a context-insensitive analysis
// merges them. Each silent shape below was reported before the mechanism
// that tells its objects apart; the true races beside them still are.
package main

import (
	"fmt"
	"sync"
)

// counter.reset is called on different counters by different goroutines:
// in each call, c is what that call passes (objects.go), not every
// counter any call passes.
type counter struct{ n int }

func (c *counter) reset() { c.n = 0 }

func (c *counter) bump() { c.n++ } // want `counter.n written in counter.bump \((main: main|goroutine started in main: main func literal 1) → counter.bump\) races with its (read|write) in counter.bump`

// job is received in a select: what the receiving case gets is what was
// sent on that channel, not any job.
type job struct{ out int }

func worker(jobs chan *job, quit chan struct{}) {
	select {
	case j := <-jobs:
		j.out = 1
	case <-quit:
	}
}

func finish(j *job) { j.out = 3 }

// fut is made fresh by each call of newFut: a goroutine started in a
// loop that makes its own future writes only that one.
type fut struct{ v int }

func newFut() *fut { return &fut{} }

type total struct{ sum int }

func main() {
	mine := &counter{}
	shared := &counter{}
	go func() {
		mine.reset()
		shared.bump()
	}()
	other := &counter{}
	other.reset() // another counter than the goroutine's: silent
	shared.bump() // the goroutine's shared counter: reported at bump

	jobs, quit := make(chan *job), make(chan struct{})
	go worker(jobs, quit)
	jobs <- &job{}
	finish(&job{}) // never sent: the worker cannot have it
	close(quit)

	t := &total{}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := newFut()
			f.v = i      // each goroutine's own future: silent
			t.sum += f.v // want `total.sum written in main func literal 2 \(goroutine started in main: main func literal 2\) races with its (read|write) in main func literal 2`
		}()
	}
	wg.Wait()
	fmt.Println(other.n, t.sum)
}

// envelope is sent by value: the pointer inside it is what the receiver
// gets, not any task.
type task struct{ n int }

type envelope struct{ t *task }

func courier(in chan envelope) {
	e := <-in
	e.t.n = 1
}

func setN(t *task) { t.n = 2 }

func init() {
	in := make(chan envelope, 1)
	go courier(in)
	in <- envelope{t: &task{}}
	setN(&task{}) // another task than the one sent: silent
}
