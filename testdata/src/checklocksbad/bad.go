// Package checklocksbad holds misspelled checklocks annotations, which
// checklocks itself skips silently.
package checklocksbad

import "sync"

type T struct {
	mu sync.Mutex

	// +checkloks:mu // want `unknown checklocks annotation \+checkloks; did you mean \+checklocks\?`
	a int

	// +checkatomicignore // want `checklocks matches \+checkatomic by prefix and reads \+checkatomicignore as \+checkatomic, and so does guardvet; write // \+checkatomic, or another annotation`
	b int64 // want b:`guard\(atomic\)`

	// checklocks:mu // want `checklocks annotation without its \+, which would be ignored; write // \+checklocks:mu`
	c int

	/* want `\+checklocks nosuch: no field nosuch in this struct` */ // +checklocks:nosuch
	//
	d int

	// +checklocks // want `\+checklocks needs a lock path, as in \+checklocks:mu`
	e int

	// +checklocks:mu
	f int // want f:`guard\(by mu\)`
}

// +checklocksread // want `\+checklocksread needs a lock path`
func (t *T) bad() {}

/* want `\+checklocksalias nosuch: no field nosuch` */ // +checklocksalias:mu=nosuch
type U struct {
	mu sync.Mutex
}
