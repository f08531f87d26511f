// Package main: a field written by goroutines started in a loop and read
// by the spawner with no join (GoKer's shape from Kubernetes and etcd).
package main

import "fmt"

type Stats struct{ last, total int }

func main() {
	st := &Stats{}
	st.total = 0 // before any goroutine starts: no race
	for i := 0; i < 4; i++ {
		go func(i int) {
			st.last = i // want `Stats.last written in main func literal 1 \(goroutine started in main: main func literal 1\) races with its (read|write) in (main|main func literal 1)`
		}(i)
	}
	fmt.Println(st.last, st.total)
}
