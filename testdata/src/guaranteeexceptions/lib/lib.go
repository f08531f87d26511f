// Package lib declares a guarded map that a package without directives
// copies out of its critical section.
package lib

import "sync"

type T struct {
	mu sync.Mutex
	M  map[string]int //guard:by mu
}

func (t *T) Lock()   { t.mu.Lock() }
func (t *T) Unlock() { t.mu.Unlock() }
