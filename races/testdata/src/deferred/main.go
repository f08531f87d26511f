// Package main: a deferred call runs as its function returns, after the
// rest of it: a write a defer makes comes after the goroutines the
// function starts (GoKer's gRPC 1748: a test restores a setting its
// goroutines still read), and after what the function waits for.
package main

import (
	"fmt"
	"sync"
)

var timeout = 10

var retries = 3

func worker() { fmt.Println(timeout) }

func main() {
	old := timeout
	defer func() {
		timeout = old // want `timeout written in main func literal 1 \(main: main → main func literal 1\) races with its read in worker`
	}()
	go worker()

	var wg sync.WaitGroup
	saved := retries
	defer func() { retries = saved }() // after the wait: ordered
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println(retries)
	}()
	wg.Wait()
}
