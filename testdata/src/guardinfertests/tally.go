// Package guardinfertests: test files are targets of guard inference only
// where they run with goroutines they started; they are never evidence.
package guardinfertests

import "sync"

type Tally struct {
	mu sync.Mutex
	n  int // guarded by mu
}

func (t *Tally) Inc() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

func (t *Tally) N() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
