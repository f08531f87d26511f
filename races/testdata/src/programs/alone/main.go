// Command alone makes a counter in each goroutine and keeps it there,
// in a slice the analysis cannot tell the goroutines' apart by: only
// the escape analysis, program by program, sees it stays.
package main

import (
	"sync"

	"programs/counter"
)

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := []*counter.Counter{counter.New()}
			cs[0].Bump()
		}()
	}
	wg.Wait()
}
