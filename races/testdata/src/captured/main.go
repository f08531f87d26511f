// Package main: local variables a function literal captures are shared
// with it, as fields are: a goroutine running the literal that writes
// one races with its starter's read unless something orders them
// (GoKer's Kubernetes 49404: a handler sets a captured flag the test
// reads without waiting).
package main

import (
	"fmt"
	"net/http"
	"sync"
)

func each(xs []int, f func(int)) {
	for _, x := range xs {
		f(x)
	}
}

func main() {
	called := false
	go func() {
		called = true // want `main.called written in main func literal 1 \(goroutine started in main: main func literal 1\) races with its read in main \(main: main\)`
	}()
	fmt.Println(called)

	// Joined before the read: ordered.
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = fmt.Errorf("done")
	}()
	wg.Wait()
	fmt.Println(err)

	// Set before the goroutine starts, only read by it: ordered.
	name := "x"
	go func() { fmt.Println(name) }()

	// A variable declared in a loop is a new one each time round: the
	// next round's write is not to the variable the last goroutine reads.
	for _, p := range []string{"a", "b"} {
		l := p
		go func() { fmt.Println(l) }()
	}

	// Each request declares its own total, summed by a literal run in
	// the request's goroutine: not shared between requests.
	http.HandleFunc("/sum", func(w http.ResponseWriter, r *http.Request) {
		total := 0
		each([]int{1, 2}, func(x int) { total += x })
		fmt.Fprint(w, total)
	})
}
