// Package atomicasm passes //guard:atomic fields to functions implemented
// in assembly: atomic when the same function's Go body for other
// platforms only accesses the pointee with sync/atomic.
package atomicasm

import "atomicasm/lib"

type T struct {
	n lib.Uint32 //guard:atomic
	m uint32     //guard:atomic
}

func (t *T) Good() {
	lib.Or(&t.n, 1)
	lib.OrDirect(&t.m, 1)
	lib.Store(&t.m, 1)
}

func (t *T) Bad() {
	lib.Racy(&t.m, 1)  // want `t.m written without sync/atomic`
	lib.Unknown(&t.m)  // want `t.m written without sync/atomic`
	lib.Mixed(&t.n, 1) // want `t.n written without sync/atomic`
	lib.Alias(&t.m, 1) // want `t.m written without sync/atomic`
}
