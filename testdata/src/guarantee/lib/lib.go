// Package lib declares a guarded field that packages without directives
// reach, directly or through another package.
package lib

import "sync"

type T struct {
	mu sync.Mutex
	N  int //guard:by mu
}

func (t *T) Lock()   { t.mu.Lock() }
func (t *T) Unlock() { t.mu.Unlock() }
