package guardinfer

import "sync"

type pipeliner struct{ n int }

// PipePool hands the addresses of pl and closed, with its lock, to a helper
// that takes the lock before it touches them: taking an address reads
// and writes nothing, so Get is silent (go-redis' AutoPipeline and
// getOrCreateAutoPipeliner). Peek reads pl itself with no lock, and is
// reported.
type PipePool struct {
	mu     sync.Mutex // guards pl and closed
	pl     *pipeliner
	closed bool
}

func getOrCreate(mu *sync.Mutex, slot **pipeliner, closed *bool) *pipeliner {
	mu.Lock()
	defer mu.Unlock()
	if *closed {
		return nil
	}
	if *slot == nil {
		*slot = &pipeliner{}
	}
	return *slot
}

func (p *PipePool) Get() *pipeliner { return getOrCreate(&p.mu, &p.pl, &p.closed) }

func (p *PipePool) Close() {
	p.mu.Lock()
	p.closed = true
	p.pl = nil
	p.mu.Unlock()
}

func (p *PipePool) Peek() bool { return p.pl != nil } // want `p.pl is documented as guarded by mu \("guards pl and closed" at addressed.go:\d+\), but p.mu is not held here`
