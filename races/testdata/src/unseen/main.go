// Package main: what guardvet races cannot see (docs/rules/races.md).
// Each of the other files holds a real race whose write happens where the
// analysis has no view: through reflection, in C code, in a plugin, or
// through unsafe pointer arithmetic. Those lines are silent, and this test
// fails the day one of them is reported, so the documentation is updated
// with it. The race below, the same shape with a plain field write, is
// reported: the fixture is analysed, and its silence is the blind spots'.
package main

import "fmt"

type State struct {
	n    int64 // written where the analysis cannot see
	seen int64
	// Each goroutine that writes n unseen also writes its own field
	// plainly, reported: it shows the goroutine is analysed.
	r, u, c, p int64
}

// more holds the cases that need a C toolchain (cgo.go), registered when
// the file is built.
var more []func(*State)

func main() {
	s := &State{}
	go func() {
		s.seen = 1 // want `State.seen written in main func literal 1 \(goroutine started in main: main func literal 1\) races with its read in main`
	}()
	viaReflect(s)
	viaUnsafe(s)
	viaPlugin(s)
	for _, f := range more {
		f(s)
	}
	fmt.Println(s.n, s.seen, s.r, s.u, s.c, s.p)
}
