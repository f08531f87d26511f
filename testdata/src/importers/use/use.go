// Package use has no directives of its own and uses an annotated package.
// It is checked against what it imports: touching lib's guarded fields and
// calling lib's functions against their declared contracts. The rules about
// lock discipline in general report nothing here, on its own locks or on
// lib's, unless -config.allrules (or -config.unannotated for
// lockorder) asks for them.
package use

import (
	"sync"

	"importers/lib"
)

// ---- the imported contracts: reported ----

func touch(c *lib.Conn) {
	c.State = 1 // want `c.State written while c.Mu is not known to be held; //guard:by Mu needs c.Mu locked`
}

func callHolds(c *lib.Conn) {
	c.BumpLocked() // want `call to c.BumpLocked needs c.Mu locked \(//guard:holds c.Mu\), but c.Mu is not known to be held here`
}

func acquireHeld(c *lib.Conn) {
	c.Mu.Lock()
	c.Acquire() // want `call to c.Acquire locks c.Mu, which is already locked here`
	c.Mu.Unlock()
}

func releaseNotHeld(c *lib.Conn) {
	c.Acquire()
	c.Release()
	c.Release() // want `call to c.Release needs c.Mu locked \(//guard:releases c.Mu\)`
}

// ---- the same, correct: silent ----

func touchLocked(c *lib.Conn) {
	c.Mu.Lock()
	c.State = 1
	c.BumpLocked()
	c.Mu.Unlock()
}

func viaContracts(c *lib.Conn) int {
	c.Acquire()
	defer c.Release()
	return c.State
}

func fresh() *lib.Conn {
	c := &lib.Conn{}
	c.State = 1 // not yet shared
	return c
}

// ---- this package's own locks: not reported without directives ----

type pool struct {
	mu   sync.Mutex
	free []int
	idle sync.Map
}

func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}

func (p *pool) unbalanced() {
	p.mu.Lock()
	p.mu.Unlock()
	p.mu.Unlock()
}

func (p *pool) selfDeadlock() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.size()
}

func (p *pool) loadThenStore(k string) {
	if _, ok := p.idle.Load(k); !ok {
		p.idle.Store(k, 1)
	}
}

// ---- lib's locks under the general rules: not reported either ----

func earlyReturn(c *lib.Conn, err error) error {
	c.Mu.Lock()
	if err != nil {
		return err
	}
	c.State++
	c.Mu.Unlock()
	return nil
}

func blockUnderNoblock(c *lib.Conn, ch chan int) {
	c.Mu.Lock()
	ch <- c.State
	c.Mu.Unlock()
}

func escapes(c *lib.Conn) map[string]int {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Cache
}

func checkThenAct(c *lib.Conn) {
	c.Mu.Lock()
	v := c.State
	c.Mu.Unlock()
	if v == 0 {
		c.Mu.Lock()
		c.State = 1
		c.Mu.Unlock()
	}
}
