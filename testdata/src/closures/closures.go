// Package closures covers function literals: called in place, deferred,
// started with go, escaping, synchronous standard-library callbacks and
// range-over-func loop bodies.
package closures

import (
	"iter"
	"slices"
	"sort"
	"sync"
)

type C struct {
	mu   sync.Mutex
	n    int   //guard:by mu
	xs   []int //guard:by mu
	once sync.Once
	m    sync.Map
	fn   func()
}

// ---- closures called in place inherit the caller's locks ----

func (c *C) inPlace() {
	c.mu.Lock()
	func() {
		c.n++
	}()
	c.mu.Unlock()
}

func (c *C) inPlaceWithArgs() {
	c.mu.Lock()
	defer c.mu.Unlock()
	func(x int) {
		c.n = x
	}(5)
}

func (c *C) inPlaceNested() {
	c.mu.Lock()
	defer c.mu.Unlock()
	func() {
		func() {
			c.n++
		}()
	}()
}

func (c *C) inPlaceAfterUnlock() {
	c.mu.Lock()
	c.mu.Unlock()
	func() {
		c.n++ // want `c.n written while c.mu is not held`
	}()
}

func (c *C) inPlaceUnlocked() {
	func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}()
}

// A closure called in place that locks: its effect applies to the caller.
func (c *C) inPlaceLocks() {
	func() { c.mu.Lock() }()
	c.n++
	c.mu.Unlock()
}

// A closure called in place that unlocks: the caller no longer holds it.
func (c *C) inPlaceUnlocks() {
	c.mu.Lock()
	func() { c.mu.Unlock() }()
	c.n++ // want `c.n written while c.mu is not held`
}

// ---- deferred closures run at return ----

func (c *C) deferredClosure() {
	c.mu.Lock()
	defer func() { c.mu.Unlock() }()
	c.n++
}

func (c *C) deferredClosureEarlyReturn(b bool) int {
	c.mu.Lock()
	defer func() { c.mu.Unlock() }()
	if b {
		return c.n
	}
	c.n++
	return 0
}

func (c *C) deferredClosureAccessThenUnlock() {
	c.mu.Lock()
	defer func() {
		c.n++
		c.mu.Unlock()
	}()
	c.n = 1
}

func (c *C) deferredReleaseThenAccess() {
	c.mu.Lock()
	defer func() { c.mu.Unlock() }()
	c.n++ // still held: the deferred unlock has not run yet
}

// ---- closures started with go hold no locks ----

func (c *C) goClosure() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}()
}

func (c *C) goClosureLocks() {
	go func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}()
}

func (c *C) goClosureDeferUnlock() {
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	}()
}

// The goroutine's locking does not affect the caller.
func (c *C) goClosureDoesNotLockCaller() {
	go func() {
		c.mu.Lock()
	}()
	c.n++ // want `c.n written while c.mu is not known to be held`
}

func (c *C) goClosureArgs() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go func(x int) {
		c.n = x // want `c.n written while c.mu is not known to be held`
	}(c.n)
}

// ---- go with a declared function that needs a lock ----

//guard:holds c.mu
func (c *C) needsLock() { c.n++ }

//guard:excludes c.mu
func (c *C) locksItself() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *C) plain() {}

func (c *C) startNeedsLock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go c.needsLock() // want `go c.needsLock runs in a new goroutine`
}

func (c *C) startLocksItself() {
	go c.locksItself()
	go c.plain()
}

// ---- escaping closures start with no locks ----

func (c *C) returned() func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	return func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
}

func (c *C) returnedLocks() func() {
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	}
}

func (c *C) storedInField() {
	c.mu.Lock()
	c.fn = func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
	c.mu.Unlock()
}

func (c *C) storedInFieldLocks() {
	c.fn = func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
}

var register func(func())

func (c *C) passedToUnknown() {
	c.mu.Lock()
	defer c.mu.Unlock()
	register(func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}

func (c *C) passedToParam(run func(func())) {
	c.mu.Lock()
	defer c.mu.Unlock()
	run(func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}

func (c *C) passedLocks(run func(func())) {
	run(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	})
}

// An escaping closure's locking does not affect the caller.
func (c *C) escapingDoesNotLockCaller() {
	register(func() { c.mu.Lock() })
	c.n++ // want `c.n written while c.mu is not known to be held`
}

// ---- synchronous standard-library callbacks inherit ----

func (c *C) sortSlice() {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.Slice(c.xs, func(i, j int) bool { return c.xs[i] < c.xs[j] })
}

func (c *C) sortSliceUnlocked(ys []int) {
	sort.Slice(ys, func(i, j int) bool {
		return ys[i]+c.n < ys[j] // want `c.n read while c.mu is not known to be held`
	})
}

func (c *C) slicesSortFunc(ys []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	slices.SortFunc(ys, func(a, b int) int {
		c.n++
		return a - b
	})
}

func (c *C) slicesSortFuncAfterUnlock(ys []int) {
	c.mu.Lock()
	c.mu.Unlock()
	slices.SortFunc(ys, func(a, b int) int {
		c.n++ // want `c.n written while c.mu is not held`
		return a - b
	})
}

func (c *C) onceDo() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.once.Do(func() {
		c.xs = make([]int, 8)
	})
}

func (c *C) onceDoUnlocked() {
	c.once.Do(func() {
		c.xs = make([]int, 8) // want `c.xs written while c.mu is not known to be held`
	})
}

func (c *C) onceDoLocksInside() {
	c.once.Do(func() {
		c.mu.Lock()
		c.xs = make([]int, 8)
		c.mu.Unlock()
	})
}

func (c *C) mapRange() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m.Range(func(k, v any) bool {
		c.n++
		return true
	})
}

func (c *C) mapRangeUnlocked() {
	c.m.Range(func(k, v any) bool {
		c.n++ // want `c.n written while c.mu is not known to be held`
		return true
	})
}

// ---- range-over-func loop bodies inherit ----

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func (c *C) rangeFunc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range count(3) {
		c.n += i
	}
}

func (c *C) rangeFuncStd() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for x := range slices.Values(c.xs) {
		c.n += x
	}
}

func (c *C) rangeFuncLockPerIteration() {
	for i := range count(3) {
		c.mu.Lock()
		c.n += i
		c.mu.Unlock()
	}
}

func (c *C) rangeFuncUnlocked() {
	for i := range count(3) {
		c.n += i // want `c.n written while c.mu is not known to be held`
	}
}

func (c *C) rangeFuncAfterUnlock() {
	c.mu.Lock()
	c.mu.Unlock()
	for i := range count(3) {
		c.n += i // want `c.n written while c.mu is not held`
	}
}

// ---- closures inside a function with a contract ----

//guard:holds c.mu
func (c *C) holdsWithClosure() {
	func() { c.n++ }()
	sort.Ints(c.xs)
	go func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}()
}

// ---- more in-place shapes ----

func (c *C) inPlaceDoubleLock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	func() {
		c.mu.Lock() // want `c.mu.Lock\(\) while c.mu is already locked`
		c.n++
	}()
}

// A closure called in place with its own defer: released when it returns.
func (c *C) inPlaceWithOwnDefer() {
	func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	}()
	c.n++ // want `c.n written while c.mu is not held`
}

func (c *C) inPlaceLoop(xs []int) {
	for _, x := range xs {
		func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.n += x
		}()
	}
}

func (c *C) goClosureCallsHolds() {
	c.mu.Lock()
	defer c.mu.Unlock()
	go func() {
		c.needsLock() // want `call to c.needsLock needs c.mu locked`
	}()
}

// The deferred closure runs after the explicit Unlock: c.n is touched with
// c.mu not held.
func (c *C) deferredAccessAfterUnlock() {
	c.mu.Lock()
	defer func() {
		c.n++ // want `c.n written while c.mu is not held`
	}()
	c.n = 1
	c.mu.Unlock()
}

// The lock is taken after the defer statement; at return it is held, and
// the deferred closure releases it.
func (c *C) deferredUnlockRegisteredBeforeLock() {
	defer func() {
		c.n++
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.n = 1
}

// The deferred closure unlocks at return, after the explicit Unlock: an
// unlock of an unlocked mutex.
func (c *C) deferredClosureUnlockAfterUnlock() {
	c.mu.Lock()
	defer func() {
		c.mu.Unlock() // want `c.mu.Unlock\(\) but c.mu is not held`
	}()
	c.n++
	c.mu.Unlock()
}

// A closure bound to a local variable and only called runs where it is
// called, with the caller's locks.
func (c *C) localClosureCalledUnderLock() {
	inc := func() { c.n++ }
	c.mu.Lock()
	inc()
	c.mu.Unlock()
}

func (c *C) localClosureCalledBare() {
	inc := func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
	inc()
	inc()
}

func (c *C) localClosureUnlocks() {
	unlock := func() { c.mu.Unlock() }
	c.mu.Lock()
	c.n++
	unlock()
	c.n++ // want `c.n written while c.mu is not held`
}

// Passed on as a value, it escapes: no locks held inside.
func (c *C) localClosurePassed(run func(func())) {
	inc := func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	}
	c.mu.Lock()
	run(inc)
	c.mu.Unlock()
}

// ---- a local helper closure that runs its callback in place ----

// A retry loop kept in a local (exec := func(run func() error) error {
// ... run() ... }) only calls the step it is handed, so the step runs with
// the caller's locks. A local helper that keeps its callback for later
// (keep) says nothing of the locks it will run with.
func (c *C) retryLocked() error {
	exec := func(run func() error) error {
		for range 3 {
			if run() == nil {
				return nil
			}
		}
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return exec(func() error {
		c.n++
		return nil
	})
}

func (c *C) keepLocked() {
	keep := func(run func()) {
		c.fn = run
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	keep(func() {
		c.n++ // want `c.n written while c.mu is not known to be held`
	})
}
