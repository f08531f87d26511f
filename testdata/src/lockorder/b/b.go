// want package:`edges\(B\.Mu -> A\.Mu\)`

// Package b closes a lock-order cycle with package a.
package b

import (
	"sync"

	"lockorder/a"
)

// counter gives b a directive of its own, so lockorder reports here. In a
// package that only imports annotated ones it reports nothing unless
// -config.unannotated asks (testdata/src/importers).
type counter struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// BThenA takes B.Mu, then A.Mu: package a takes them the other way round.
func BThenA(x *a.A, y *a.B) { // want BThenA:`acquires\(y\.Mu, x\.Mu\)`
	y.Mu.Lock()
	defer y.Mu.Unlock()
	x.Mu.Lock() // want `potential deadlock: A.Mu is acquired here \(x.Mu\) while B.Mu is held \(y.Mu\), but elsewhere the order is reversed \(A.Mu then B.Mu at a.go:`
	y.Y = x.X
	x.Mu.Unlock()
}
