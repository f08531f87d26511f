// Command deadbranch: code under a branch on a false constant (a debug
// switch the compiler drops) cannot run, so its calls and accesses are
// not followed; under a branch on a variable they are.
package main

import "sync"

const debug = false

type stats struct {
	hits  int
	trace []string
}

var (
	mu      sync.Mutex
	s       stats
	verbose bool
)

func check() {
	s.trace = append(s.trace, "checked") // want `stats.trace written in check .* races with its write in check`
}

func worker(wg *sync.WaitGroup) {
	defer wg.Done()
	mu.Lock()
	s.hits++
	mu.Unlock()
	if debug {
		s.trace = nil
		check()
	}
	if verbose {
		check()
	}
}

func main() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go worker(&wg)
	}
	wg.Wait()
}
