// Package checklocksbad holds misspelled checklocks annotations, which
// checklocks itself skips silently.
package checklocksbad

import "sync"

type T struct {
	mu sync.Mutex

	// +checkloks:mu // want `unknown checklocks annotation \+checkloks; did you mean \+checklocks\?`
	a int

	// +checkatomicignore // want `unknown checklocks annotation \+checkatomicignore; did you mean \+checkatomic\?`
	b int64

	// checklocks:mu // want `checklocks annotation without its \+, which would be ignored; write // \+checklocks:mu`
	c int

	// +checklocks:nosuch // want `\+checklocks nosuch: no field nosuch in this struct`
	d int

	// +checklocks // want `\+checklocks needs a lock path, as in \+checklocks:mu`
	e int

	// +checklocks:mu
	f int // want f:`guard\(by mu\)`
}

// +checklocksread // want `\+checklocksread needs a lock path`
func (t *T) bad() {}

// +checklocksalias:mu=nosuch // want `\+checklocksalias nosuch: no field nosuch`
type U struct {
	mu sync.Mutex
}
