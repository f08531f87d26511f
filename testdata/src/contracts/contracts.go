// Package contracts covers the function directives holds, rholds,
// acquires, racquires, releases, rreleases and excludes: on methods and
// functions, with parameter paths, checked at call sites and against the
// function's own body; and inferred summaries of unannotated helpers.
package contracts

import "sync"

type T struct {
	mu sync.Mutex
	rw sync.RWMutex
	n  int //guard:by mu
	r  int //guard:by rw
}

func slow() {}

// ---- holds ----

//guard:holds t.mu
func (t *T) incLocked() { t.n++ }

func (t *T) callHolds() {
	t.mu.Lock()
	t.incLocked()
	t.mu.Unlock()
}

func (t *T) callHoldsDefer() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.incLocked()
	t.incLocked()
}

func (t *T) callHoldsUnlocked() {
	t.incLocked() // want `call to t.incLocked needs t.mu locked \(//guard:holds t.mu\), but t.mu is not known to be held here`
}

func (t *T) callHoldsAfterUnlock() {
	t.mu.Lock()
	t.mu.Unlock()
	t.incLocked() // want `call to t.incLocked needs t.mu locked \(//guard:holds t.mu\), but t.mu is not held here`
}

func callHoldsOther(a, b *T) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.incLocked()
	b.incLocked() // want `call to b.incLocked needs b.mu locked`
}

// A holds function calling another holds function.
//
//guard:holds t.mu
func (t *T) incTwiceLocked() {
	t.incLocked()
	t.incLocked()
}

//guard:holds t.rw
func (t *T) writeR() { t.r++ }

func (t *T) callWriteRUnderRead() {
	t.rw.RLock()
	defer t.rw.RUnlock()
	t.writeR() // want `call to t.writeR needs t.rw locked \(//guard:holds t.rw\), but t.rw is read-locked here`
}

func (t *T) callWriteR() {
	t.rw.Lock()
	defer t.rw.Unlock()
	t.writeR()
}

// Temporarily releasing the lock and retaking it keeps the contract.
//
//guard:holds t.mu
func (t *T) dropAndRetake() {
	t.n++
	t.mu.Unlock()
	slow()
	t.mu.Lock()
	t.n++
}

// Unlocking and returning breaks the contract.
//
//guard:holds t.mu
func (t *T) breaksHolds(b bool) {
	if b {
		t.mu.Unlock()
		return // want `breaksHolds returns with t.mu not held, breaking its //guard:holds t.mu contract`
	}
	t.n++
}

//guard:holds t.mu
func (t *T) breaksHoldsAtEnd() {
	t.n++
	t.mu.Unlock()
} // want `breaksHoldsAtEnd returns with t.mu not held, breaking its //guard:holds t.mu contract`

//guard:holds t.mu
func (t *T) accessAfterDrop() {
	t.mu.Unlock()
	t.n++ // want `t.n written while t.mu is not held`
	t.mu.Lock()
}

// ---- rholds ----

//guard:rholds t.rw
func (t *T) readLocked() int { return t.r }

//guard:rholds t.rw
func (t *T) writeUnderRHolds() {
	t.r = 1 // want `t.r written while t.rw is read-locked`
}

func (t *T) callRHolds() int {
	t.rw.RLock()
	v := t.readLocked()
	t.rw.RUnlock()
	t.rw.Lock()
	v += t.readLocked()
	t.rw.Unlock()
	return v
}

func (t *T) callRHoldsUnlocked() int {
	return t.readLocked() // want `call to t.readLocked needs t.rw read- or write-locked \(//guard:rholds t.rw\), but t.rw is not known to be held here`
}

// ---- acquires / releases ----

//guard:acquires t.mu
func (t *T) lock() { t.mu.Lock() }

//guard:releases t.mu
func (t *T) unlock() { t.mu.Unlock() }

//guard:racquires t.rw
func (t *T) rlock() { t.rw.RLock() }

//guard:rreleases t.rw
func (t *T) runlock() { t.rw.RUnlock() }

func (t *T) callAcquireRelease() {
	t.lock()
	t.n++
	t.incLocked()
	t.unlock()
}

func (t *T) callAcquireDeferRelease() int {
	t.lock()
	defer t.unlock()
	return t.n
}

func (t *T) callRAcquire() int {
	t.rlock()
	defer t.runlock()
	return t.r + t.readLocked()
}

func (t *T) callRAcquireWrite() {
	t.rlock()
	t.r = 2 // want `t.r written while t.rw is read-locked`
	t.runlock()
}

func (t *T) afterRelease() {
	t.lock()
	t.unlock()
	t.n++ // want `t.n written while t.mu is not held`
}

func (t *T) acquireTwice() {
	t.lock()
	t.lock() // want `call to t.lock locks t.mu, which is already locked here`
	t.unlock()
}

func (t *T) releaseNotHeld() {
	t.lock()
	t.unlock()
	t.unlock() // want `call to t.unlock needs t.mu locked \(//guard:releases t.mu\), but t.mu is not held here`
}

func (t *T) releaseWithLockOp() {
	t.mu.Lock()
	t.n++
	t.unlock()
}

func (t *T) acquireThenUnlockOp() {
	t.lock()
	t.n++
	t.mu.Unlock()
}

//guard:acquires t.mu
func (t *T) lockIf(b bool) {
	if b {
		t.mu.Lock()
		return
	}
	return // want `lockIf returns with t.mu not held, breaking its //guard:acquires t.mu contract`
}

//guard:releases t.mu
func (t *T) releaseForgets(b bool) {
	if b {
		return // want `releaseForgets returns with t.mu locked, breaking its //guard:releases t.mu contract`
	}
	t.mu.Unlock()
}

//guard:acquires t.mu
func (t *T) acquiresAndAccesses() {
	t.mu.Lock()
	t.n = 0
}

//guard:releases t.mu
func (t *T) releasesAndAccesses() {
	t.n = 0
	t.mu.Unlock()
}

// ---- excludes ----

//guard:excludes t.mu
func (t *T) Inc() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n++
}

func (t *T) callExcludes() {
	t.Inc()
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
	t.Inc()
}

func (t *T) callExcludesLocked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Inc() // want `call to t.Inc needs t.mu not held \(//guard:excludes t.mu\), but t.mu is locked here`
}

func (t *T) callExcludesReadLocked() {
	t.rw.RLock()
	defer t.rw.RUnlock()
	t.readThenWrite() // want `call to t.readThenWrite needs t.rw not held \(//guard:excludes t.rw\), but t.rw is read-locked here`
}

//guard:excludes t.rw
func (t *T) readThenWrite() {
	t.rw.Lock()
	t.r++
	t.rw.Unlock()
}

// An excludes function that locks its own lock twice.
//
//guard:excludes t.mu
func (t *T) excludesDoubleLock() {
	t.mu.Lock()
	t.mu.Lock() // want `t.mu.Lock\(\) while t.mu is already locked`
	t.mu.Unlock()
}

// ---- parameter paths ----

//guard:holds a.mu b.mu
func transfer(a, b *T, x int) {
	a.n -= x
	b.n += x
}

//guard:holds a.mu
func transferHalf(a, b *T, x int) {
	a.n -= x
	b.n += x // want `b.n written while b.mu is not known to be held`
}

//guard:excludes a.mu b.mu
func lockBothAndTransfer(a, b *T, x int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	transfer(a, b, x)
}

func callTransfer(a, b *T) {
	a.mu.Lock()
	b.mu.Lock()
	transfer(a, b, 1)
	transfer(b, a, 1)
	b.mu.Unlock()
	a.mu.Unlock()
	lockBothAndTransfer(a, b, 1)
}

func callTransferMissingSecond(a, b *T) {
	a.mu.Lock()
	defer a.mu.Unlock()
	transfer(a, b, 1) // want `call to transfer needs b.mu locked \(//guard:holds b.mu\), but b.mu is not known to be held here`
}

func callTransferMissingFirst(a, b *T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	transfer(a, b, 1) // want `call to transfer needs a.mu locked \(//guard:holds a.mu\), but a.mu is not known to be held here`
}

func callTransferSwapped(a, b *T) {
	a.mu.Lock()
	defer a.mu.Unlock()
	transfer(b, a, 1) // want `call to transfer needs b.mu locked \(//guard:holds a.mu\), but b.mu is not known to be held here`
}

func callLockBothHeld(a, b *T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	lockBothAndTransfer(a, b, 1) // want `call to lockBothAndTransfer needs b.mu not held \(//guard:excludes b.mu\), but b.mu is locked here`
}

type Pair struct {
	left, right T
}

func (p *Pair) callTransferFields() {
	p.left.mu.Lock()
	p.right.mu.Lock()
	transfer(&p.left, &p.right, 1)
	p.right.mu.Unlock()
	p.left.mu.Unlock()
}

func (p *Pair) callTransferFieldsMissing() {
	p.left.mu.Lock()
	defer p.left.mu.Unlock()
	transfer(&p.left, &p.right, 1) // want `call to transfer needs p.right.mu locked \(//guard:holds b.mu\), but p.right.mu is not known to be held here`
}

//guard:acquires a.mu
func lockParam(a *T) { a.mu.Lock() }

//guard:releases a.mu
func unlockParam(a *T) { a.mu.Unlock() }

func callParamAcquire(x, y *T) {
	lockParam(x)
	x.n++
	y.n++ // want `y.n written while y.mu is not known to be held`
	unlockParam(x)
}

// Aliases are substituted at call sites.
func callThroughAlias(x *T) {
	y := x
	y.mu.Lock()
	x.incLocked()
	transfer(x, y, 1)
	y.mu.Unlock()
}

// ---- global lock in a contract ----

var (
	gmu   sync.Mutex
	total int //guard:by gmu
)

//guard:holds gmu
func addTotal(x int) { total += x }

func callAddTotal() {
	gmu.Lock()
	addTotal(1)
	gmu.Unlock()
	addTotal(2) // want `call to addTotal needs gmu locked \(//guard:holds gmu\), but gmu is not held here`
}

// ---- unannotated helpers are summarised ----

func (t *T) lockH()   { t.mu.Lock() }
func (t *T) unlockH() { t.mu.Unlock() }

// A helper calling a helper.
func (t *T) lockViaHelper()   { t.lockH() }
func (t *T) unlockViaHelper() { t.unlockH() }

// A helper with an early return that still has a fixed effect.
func (t *T) lockAndCheck() bool {
	t.mu.Lock()
	if t.n < 0 {
		return false
	}
	return true
}

// A function-style helper with a parameter.
func lockT(t *T)   { t.mu.Lock() }
func unlockT(t *T) { t.mu.Unlock() }

func rlockT(t *T)   { t.rw.RLock() }
func runlockT(t *T) { t.rw.RUnlock() }

func (t *T) useHelpers() {
	t.lockH()
	t.n++
	t.incLocked()
	t.unlockH()
}

func (t *T) useHelperDefer() int {
	t.lockH()
	defer t.unlockH()
	return t.n
}

func (t *T) useNestedHelpers() {
	t.lockViaHelper()
	t.n++
	t.unlockViaHelper()
	t.n++ // want `t.n written while t.mu is not held`
}

func (t *T) useLockAndCheck() {
	if t.lockAndCheck() {
		t.n++
	}
	t.n--
	t.unlockH()
}

func useFuncHelpers(a, b *T) {
	lockT(a)
	a.n++
	b.n++ // want `b.n written while b.mu is not known to be held`
	unlockT(a)
	rlockT(b)
	_ = b.r
	b.r = 1 // want `b.r written while b.rw is read-locked`
	runlockT(b)
}

func (t *T) helperDoubleLock() {
	t.lockH()
	t.lockH() // want `call to t.lockH locks t.mu, which is already locked here`
	t.unlockH()
}

// A helper whose effect depends on its argument has no summary.
func (t *T) maybeLock(b bool) {
	if b {
		t.mu.Lock()
	}
}

func (t *T) useMaybeLock() {
	t.maybeLock(true)
	t.n++ // want `t.n written while t.mu is not known to be held`
}

// A helper that locks and unlocks leaves nothing behind for its callers.
func (t *T) incH() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

func (t *T) useIncH() {
	t.incH()
	t.incH()
	t.lockH()
	t.n++
	t.unlockH()
}

// ---- more contract-breaking shapes ----

// A deferred unlock in a holds function breaks the contract at return.
//
//guard:holds t.mu
func (t *T) deferUnlockBreaksHolds() {
	defer t.mu.Unlock()
	t.n++
} // want `deferUnlockBreaksHolds returns with t.mu not held, breaking its //guard:holds t.mu contract`

//guard:acquires r.mu
func newLocked() (r *T) {
	r = &T{}
	r.mu.Lock()
	return r
}

func useNewLocked() {
	t := newLocked()
	t.n++
	t.mu.Unlock()
}

// ---- a lock handed off to a goroutine ----

// finishAndUnlock is started as a goroutine with t.mu held: it takes the
// lock over and releases it.
//
//guard:releases t.mu
func (t *T) finishAndUnlock() {
	t.n++
	t.mu.Unlock()
}

func (t *T) handOff() {
	t.mu.Lock()
	t.n++
	go t.finishAndUnlock()
}

func (t *T) handOffUnheld() {
	go t.finishAndUnlock() // want `go t.finishAndUnlock runs in a new goroutine, which holds no locks, but it needs t.mu held`
}

// After the hand-off the lock is the goroutine's, not the starter's.
func (t *T) handOffThenWrite() {
	t.mu.Lock()
	go t.finishAndUnlock()
	t.n = 0 // want `t.n written while t.mu is not held`
}
