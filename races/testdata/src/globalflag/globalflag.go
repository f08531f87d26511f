// Command globalflag: options held in a package variable of struct type
// (go-deadlock's Opts), a flag of which a function checks and sets
// (if !Opts.Disabled { ...; Opts.Disabled = true }). A field of a
// package variable is a location like any other: the analysis must not
// fail on it, and two goroutines setting it with no lock race. A queue
// held in such a variable, set up through its Once (kcp-go's ppQueue),
// is ordered by the Once as one in a named type is: not reported.
package main

import (
	"sync"
	"time"
)

var queue struct {
	once sync.Once
	mu   sync.Mutex
	cond *sync.Cond
	q    []int
}

func start() {
	queue.cond = sync.NewCond(&queue.mu)
	go worker()
}

func worker() {
	for {
		queue.mu.Lock()
		for len(queue.q) == 0 {
			queue.cond.Wait()
		}
		queue.q = queue.q[1:]
		queue.mu.Unlock()
	}
}

func enqueue(n int) {
	queue.once.Do(start)
	queue.mu.Lock()
	queue.q = append(queue.q, n)
	queue.mu.Unlock()
	queue.cond.Signal()
}

var Opts = struct {
	Disabled bool
	Timeout  time.Duration
}{Timeout: time.Second}

func disable() {
	if !Opts.Disabled {
		Opts.Timeout = 0     // want `Opts.Timeout written in disable .* races with its write in disable`
		Opts.Disabled = true // want `Opts.Disabled written in disable .* races with its (read|write) in disable`
	}
}

func main() {
	go disable()
	go disable()
	go enqueue(1)
	go enqueue(2)
	time.Sleep(time.Second)
}
