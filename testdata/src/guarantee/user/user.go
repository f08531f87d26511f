// Package user has no directives and does not import lib: lib's guards
// reach it through mid.
package user

import "guarantee/mid"

func Bad() {
	t := mid.Get()
	t.N++ // want `t.N written while t.mu is not known to be held`
}

func Good() {
	t := mid.Get()
	t.Lock()
	t.N++
	t.Unlock()
}
