// Package errgroup is a stand-in for golang.org/x/sync/errgroup in the
// fixtures: the same names, a minimal body.
package errgroup

import "sync"

type Group struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
