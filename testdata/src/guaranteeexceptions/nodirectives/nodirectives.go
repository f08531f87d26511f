// Package nodirectives has no directives of its own: only accesses to
// imported guarded fields are checked here (docs/rules/README.md, "Where the rules
// apply"), and the escape rule is off.
package nodirectives

import "guaranteeexceptions/lib"

func Escape(t *lib.T) {
	t.Lock()
	m := t.M
	t.Unlock()
	m["x"] = 1 // exception: the escape rule does not run in a package without directives (-config.allrules turns it on)
}
