package guardinfer

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

// Goroutines of errgroup.Group.Go and sync.WaitGroup.Go are goroutines,
// as a go statement's are: started and joined under the starter's lock,
// their reads are inside its critical section (Reload, silent); started
// with the lock released, they race with the locked writes (Refresh,
// reported).

type GroupPools struct {
	mu      sync.Mutex
	targets map[string]int // guarded by mu
}

func (p *GroupPools) Set(k string, v int) {
	p.mu.Lock()
	p.targets[k] = v
	p.mu.Unlock()
}

func (p *GroupPools) Reload(names []string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var g errgroup.Group
	for _, n := range names {
		g.Go(func() error {
			_ = p.targets[n]
			return nil
		})
	}
	return g.Wait()
}

func (p *GroupPools) Refresh(names []string) {
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Go(func() {
			_ = p.targets[n] // want `p.targets is documented as guarded by mu`
		})
	}
	wg.Wait()
}

// The same through a literal that binds the loop variable and returns the
// goroutine's function (g.Go(func(n string) func() error { return
// func() error {...} }(n)), prometheus' DB.Delete): ReloadBound is
// silent, RefreshBound reported.
type BoundPools struct {
	mu      sync.Mutex
	targets map[string]int // guarded by mu
}

func (p *BoundPools) Set(k string, v int) {
	p.mu.Lock()
	p.targets[k] = v
	p.mu.Unlock()
}

func (p *BoundPools) ReloadBound(names []string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var g errgroup.Group
	for _, n := range names {
		g.Go(func(n string) func() error {
			return func() error {
				_ = p.targets[n]
				return nil
			}
		}(n))
	}
	return g.Wait()
}

func (p *BoundPools) RefreshBound(names []string) error {
	var g errgroup.Group
	for _, n := range names {
		g.Go(func(n string) func() error {
			return func() error {
				_ = p.targets[n] // want `p.targets is documented as guarded by mu`
				return nil
			}
		}(n))
	}
	return g.Wait()
}
