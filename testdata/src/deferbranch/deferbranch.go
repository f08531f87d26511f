// Package deferbranch covers control flow: defer (also inside an if), early
// returns, loops, switch, select, goto, panics, TryLock, and the lock
// balance checks (missing unlock on an early return, double lock, unlock of
// a lock that is not held, wrong unlock mode).
package deferbranch

import (
	"errors"
	"log"
	"os"
	"sync"
)

type C struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
	r  int //guard:by rw
}

var errNeg = errors.New("negative")

func work(int) {}

// ---- defer ----

func (c *C) deferUnlock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

func (c *C) deferRUnlock() int {
	c.rw.RLock()
	defer c.rw.RUnlock()
	return c.r
}

// Conditional lock with a conditional defer.
func (c *C) condDefer(need bool) {
	if need {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n++
	}
	work(0)
}

func (c *C) condDeferReturn(need bool) int {
	if need {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.n
	}
	return 0
}

func (c *C) condDeferBothBranches(fast bool) {
	if fast {
		c.mu.Lock()
		defer c.mu.Unlock()
	} else {
		c.rw.Lock()
		c.mu.Lock()
		defer c.mu.Unlock()
		defer c.rw.Unlock()
		c.r++
	}
	c.n++
}

// Locked unconditionally; released either by a conditional defer or by an
// explicit unlock on the other path.
func (c *C) condDeferOrExplicit(d bool) {
	c.mu.Lock()
	if d {
		defer c.mu.Unlock()
	}
	c.n++
	if !d {
		c.mu.Unlock()
	}
}

func (c *C) condDeferEarlyReturn(d bool) error {
	c.mu.Lock()
	if d {
		defer c.mu.Unlock()
		c.n++
		return nil
	}
	c.n--
	c.mu.Unlock()
	return nil
}

func (c *C) condDeferAccessAfter(need bool) {
	if need {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.n++ // want `c.n written while c.mu is held on some paths only`
}

// ---- early returns ----

func (c *C) earlyReturn(b bool) int {
	c.mu.Lock()
	if b {
		c.mu.Unlock()
		return 0
	}
	v := c.n
	c.mu.Unlock()
	return v
}

func (c *C) earlyReturnAfterUnlock(b bool) int {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	if b {
		return v
	}
	return c.n // want `c.n read while c.mu is not held`
}

func (c *C) missingUnlock(err error) error {
	c.mu.Lock()
	if err != nil {
		return err // want `return with c.mu still locked, but later paths unlock it`
	}
	c.n++
	c.mu.Unlock()
	return nil
}

func (c *C) missingRUnlock(k int) int {
	c.rw.RLock()
	if k < 0 {
		return -1 // want `return with c.rw still locked, but later paths unlock it`
	}
	v := c.r
	c.rw.RUnlock()
	return v
}

// A helper that returns with the lock held on success and released on
// failure: deliberate, not reported.
func (c *C) lockIfPositive(x int) error {
	c.mu.Lock()
	if x <= 0 {
		c.mu.Unlock()
		return errNeg
	}
	return nil
}

// ---- loops ----

func (c *C) loopPerIteration(xs []int) {
	for _, x := range xs {
		c.mu.Lock()
		c.n += x
		c.mu.Unlock()
	}
}

func (c *C) loopPerIterationDeferInClosure(xs []int) {
	for _, x := range xs {
		func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.n += x
		}()
	}
}

func (c *C) loopContinue(xs []int) {
	for _, x := range xs {
		c.mu.Lock()
		if x < 0 {
			c.mu.Unlock()
			continue
		}
		c.n += x
		c.mu.Unlock()
	}
}

func (c *C) loopBreak(xs []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range xs {
		if x < 0 {
			break
		}
		c.n += x
	}
	c.n++
}

func (c *C) loopHeld(n int) {
	c.mu.Lock()
	for i := 0; i < n; i++ {
		c.n += i
	}
	c.mu.Unlock()
}

func (c *C) loopRelock(xs []int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range xs {
		c.n += x
		c.mu.Unlock()
		work(x)
		c.mu.Lock()
	}
	c.n++
}

func (c *C) loopAccessAfterUnlock(xs []int) {
	for _, x := range xs {
		c.mu.Lock()
		c.mu.Unlock()
		c.n += x // want `c.n written while c.mu is not held`
	}
}

func (c *C) loopUnlockedCondition() {
	for c.n < 10 { // want `c.n read while c.mu is not known to be held`
		work(0)
	}
}

func (c *C) loopLockedCondition() {
	c.mu.Lock()
	for c.n < 10 {
		c.n++
	}
	c.mu.Unlock()
}

// ---- switch and select ----

func (c *C) switchHeld(k int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch k {
	case 0:
		return c.n
	case 1:
		c.n++
	default:
		c.n--
	}
	return 0
}

func (c *C) switchUnlockAndReturn(k int) {
	c.mu.Lock()
	switch k {
	case 0:
		c.mu.Unlock()
		return
	case 1:
		c.n++
	}
	c.n--
	c.mu.Unlock()
}

func (c *C) switchUnlockOneCase(k int) {
	c.mu.Lock()
	switch k {
	case 0:
		c.mu.Unlock()
	case 1:
		c.n++
	}
	c.n-- // want `c.n written while c.mu is held on some paths only`
}

func (c *C) switchLockEveryCase(k int) {
	switch k {
	case 0:
		c.mu.Lock()
	default:
		c.mu.Lock()
	}
	c.n++
	c.mu.Unlock()
}

func (c *C) typeSwitch(v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch x := v.(type) {
	case int:
		c.n = x
	case string:
		c.n = len(x)
	}
}

func (c *C) selectHeld(ch chan int, done chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case v := <-ch:
		c.n = v
	case <-done:
		return
	}
}

func (c *C) selectUnlockEveryCase(ch chan int) {
	c.mu.Lock()
	select {
	case v := <-ch:
		c.n = v
		c.mu.Unlock()
	default:
		c.mu.Unlock()
	}
	c.n++ // want `c.n written while c.mu is not held`
}

func (c *C) selectUnlockOneCase(ch chan int) {
	c.mu.Lock()
	select {
	case v := <-ch:
		c.n = v
		c.mu.Unlock()
	default:
	}
	c.n++ // want `c.n written while c.mu is held on some paths only`
}

// ---- goto ----

func (c *C) gotoCleanup(x int) error {
	c.mu.Lock()
	if x < 0 {
		goto fail
	}
	c.n = x
	c.mu.Unlock()
	return nil
fail:
	c.mu.Unlock()
	return errNeg
}

func (c *C) gotoRetry() {
retry:
	c.mu.Lock()
	if c.n > 10 {
		c.n = 0
		c.mu.Unlock()
		goto retry
	}
	c.n++
	c.mu.Unlock()
}

// ---- panic and other non-returning calls ----

func (c *C) panicWhileLocked(x int) {
	c.mu.Lock()
	if x < 0 {
		panic("negative") // not a return: no missing-unlock report
	}
	c.n = x
	c.mu.Unlock()
}

func (c *C) fatalWhileLocked(x int) {
	c.mu.Lock()
	if x < 0 {
		log.Fatalf("negative: %d", x)
	}
	if x > 100 {
		os.Exit(2)
	}
	c.n = x
	c.mu.Unlock()
}

func (c *C) lockOrPanic(ok bool) {
	if ok {
		c.mu.Lock()
	} else {
		panic("not ok")
	}
	c.n++ // only the locked path gets here
	c.mu.Unlock()
}

func (c *C) unlockOrPanic(ok bool) {
	c.mu.Lock()
	if ok {
		c.mu.Unlock()
	} else {
		panic("not ok")
	}
	c.n++ // want `c.n written while c.mu is not held`
}

func (c *C) recoverDefer() (err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = errNeg
		}
	}()
	c.n++
	return nil
}

// ---- lock misuse ----

func (c *C) doubleLock() {
	c.mu.Lock()
	c.mu.Lock() // want `c.mu.Lock\(\) while c.mu is already locked`
	c.n++
	c.mu.Unlock()
}

func (c *C) readThenWriteLock() {
	c.rw.RLock()
	c.rw.Lock() // want `c.rw.Lock\(\) while c.rw is already read-locked`
	c.rw.Unlock()
}

func (c *C) writeThenReadLock() {
	c.rw.Lock()
	c.rw.RLock() // want `c.rw.RLock\(\) while c.rw is already locked`
	c.rw.RUnlock()
}

func (c *C) relockAfterUnlock() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *C) unlockTwice() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.mu.Unlock() // want `c.mu.Unlock\(\) but c.mu is not held here`
}

func (c *C) runlockTwice() {
	c.rw.RLock()
	_ = c.r
	c.rw.RUnlock()
	c.rw.RUnlock() // want `c.rw.RUnlock\(\) but c.rw is not held here`
}

// Unlocking a lock whose state is not known (the caller holds it) is a
// helper, not an error.
func (c *C) unlockForCaller() {
	c.mu.Unlock()
}

func (c *C) readLockThenUnlock() {
	c.rw.RLock()
	_ = c.r
	c.rw.Unlock() // want `c.rw.Unlock\(\) but c.rw is read-locked here; use RUnlock`
}

func (c *C) writeLockThenRUnlock() {
	c.rw.Lock()
	c.r++
	c.rw.RUnlock() // want `c.rw.RUnlock\(\) but c.rw is write-locked here; use Unlock`
}

// ---- TryLock ----

func (c *C) tryLock() {
	if c.mu.TryLock() {
		c.n++
		c.mu.Unlock()
	}
}

func (c *C) tryLockNegated() {
	if !c.mu.TryLock() {
		return
	}
	c.n++
	c.mu.Unlock()
}

func (c *C) tryLockFalseBranch() {
	if c.mu.TryLock() {
		c.mu.Unlock()
	} else {
		c.n++ // want `c.n written while c.mu is not`
	}
}

func (c *C) tryRLock() int {
	if c.rw.TryRLock() {
		defer c.rw.RUnlock()
		return c.r
	}
	return 0
}

func (c *C) tryRLockWrite() {
	if c.rw.TryRLock() {
		c.r++ // want `c.r written while c.rw is read-locked`
		c.rw.RUnlock()
	}
}

func (c *C) tryAcquire() bool {
	if c.mu.TryLock() {
		return true
	}
	return false
}

func (c *C) tryLockLoop() {
	for !c.mu.TryLock() {
		work(0)
	}
	c.n++
	c.mu.Unlock()
}

// ---- more shapes ----

func (c *C) findInLoop(xs []int) int {
	for _, x := range xs {
		c.mu.Lock()
		if c.n == x {
			c.mu.Unlock()
			return x
		}
		c.mu.Unlock()
	}
	return -1
}

func (c *C) upgrade() {
	c.rw.RLock()
	v := c.r
	c.rw.RUnlock()
	c.rw.Lock()
	defer c.rw.Unlock()
	if c.r == v { // re-checked under the write lock: no lost update
		c.r = v + 1
	}
}

func (c *C) infiniteLoopBreak() {
	for {
		c.mu.Lock()
		if c.n > 3 {
			c.mu.Unlock()
			break
		}
		c.n++
		c.mu.Unlock()
	}
	c.n = 0 // want `c.n written while c.mu is not held`
}

func (c *C) labeledBreak(grid [][]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
outer:
	for _, row := range grid {
		for _, v := range row {
			if v < 0 {
				break outer
			}
			c.n += v
		}
	}
	c.n++
}

// ---- deferred calls with contracts run at return ----

//guard:holds c.mu
func (c *C) incLocked() { c.n++ }

// Defers run last-in first-out: incLocked runs before the Unlock.
func (c *C) deferHoldsBeforeUnlock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.incLocked()
	c.n++
}

// ---- defer together with an explicit unlock ----

// Released early and retaken: the deferred Unlock finds it held.
func (c *C) deferWithTemporaryRelease() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	c.mu.Unlock()
	work(0)
	c.mu.Lock()
	c.n++
}

// The same helper written success-first: the early return keeps the lock
// on purpose (the bool result says so), the failure path releases it.
func (c *C) lockIfReady(ready bool) bool {
	c.mu.Lock()
	if ready {
		return true
	}
	c.mu.Unlock()
	return false
}

func (c *C) gotoSkipsLock(x int) {
	if x < 0 {
		goto out
	}
	c.mu.Lock()
	c.n = x
	c.mu.Unlock()
out:
	c.n++ // want `c.n written while c.mu is not`
}

func (c *C) tryLockAfterIf() {
	if c.mu.TryLock() {
		c.n++
		c.mu.Unlock()
	}
	c.n++ // want `c.n written while c.mu is not`
}

func (c *C) tryLockInitStmt() {
	if ok := c.mu.TryLock(); ok {
		c.n++
		c.mu.Unlock()
	}
}

func (c *C) tryLockAnd(ready bool) {
	if ready && c.mu.TryLock() {
		c.n++
		c.mu.Unlock()
	}
}

// The deferred call runs at return, after the explicit Unlock.
func (c *C) deferHoldsAfterUnlock() {
	c.mu.Lock()
	defer c.incLocked() // want `call to c.incLocked needs c.mu locked`
	c.n++
	c.mu.Unlock()
}

// Released explicitly and never retaken: the deferred Unlock at return
// unlocks an unlocked mutex, a fatal error.
func (c *C) deferAndExplicitUnlock() {
	c.mu.Lock()
	defer c.mu.Unlock() // want `c.mu.Unlock\(\) but c.mu is not held`
	c.n++
	c.mu.Unlock()
}
