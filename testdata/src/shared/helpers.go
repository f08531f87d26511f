package shared

import (
	"sync"
	"sync/atomic"
)

// Helpers that run their function argument in goroutines of their own,
// decided from their bodies, and lazy initialisation from several
// goroutines.

// parallel runs f(0..n-1) at once and waits for them.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// inTurn runs f(0..n-1) one after the other.
func inTurn(n int, f func(i int)) {
	for i := 0; i < n; i++ {
		f(i)
	}
}

type Totals struct {
	total int
	parts []int
}

// sum: every call parallel makes writes t.total.
func (t *Totals) sum() {
	parallel(4, func(i int) {
		t.total += i // want `t.total is written in the goroutine started at helpers.go:\d+ and written in another instance of it at helpers.go:\d+`
	})
}

// sumParts writes each goroutine's own element: silent.
func (t *Totals) sumParts() {
	t.parts = make([]int, 4)
	parallel(4, func(i int) {
		t.parts[i] = i
	})
}

// sumInOrder: inTurn calls f in turn, no goroutine: silent.
func (t *Totals) sumInOrder() {
	inTurn(4, func(i int) {
		t.total += i
	})
}

type Index struct {
	cache map[string]int
}

func (x *Index) lookup() map[string]int {
	if x.cache == nil {
		x.cache = map[string]int{}
	}
	return x.cache
}

// warm: the lazy initialisation runs from several goroutines at once.
func warm(x *Index) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = x.lookup() // want `x.cache is read by Index.lookup in the goroutine started at helpers.go:\d+ and written by Index.lookup in another instance of it`
		}()
	}
	wg.Wait()
}

type OnceIndex struct {
	once  sync.Once
	cache map[string]int
}

func (x *OnceIndex) lookup() map[string]int {
	x.once.Do(func() { x.cache = map[string]int{} })
	return x.cache
}

// warmOnce initialises through sync.Once: silent.
func warmOnce(x *OnceIndex) {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = x.lookup()
		}()
	}
	wg.Wait()
}

// warmFirst initialises before the goroutines start: silent.
func warmFirst(x *Index) {
	_ = x.lookup()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = x.cache["a"]
		}()
	}
	wg.Wait()
}

// Pending is handed to workers by go p.done(); the starter then adds to
// it plainly while they decrement it atomically.
type Pending struct{ n int32 }

func (p *Pending) done() { atomic.AddInt32(&p.n, -1) }

func runPending() *Pending {
	p := &Pending{}
	for i := 0; i < 4; i++ {
		go p.done() // want `p.n is written atomically by Pending.done in the goroutine started at helpers.go:\d+ and written by the function that started it`
	}
	p.n += 4
	return p
}

// runPendingFirst counts before it starts the workers: silent.
func runPendingFirst() *Pending {
	p := &Pending{}
	p.n = 4
	for i := 0; i < 4; i++ {
		go p.done()
	}
	return p
}
