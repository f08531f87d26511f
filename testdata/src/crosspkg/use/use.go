// Package use calls into package lib: the guards, the declared contracts
// and the inferred helper effects all cross the package boundary as facts.
// It has a directive of its own (Wrapper.tag), so every rule applies here;
// a package that only imports annotated ones is checked against the
// imported contracts alone (testdata/src/importers).
package use

import (
	"crosspkg/helpers"
	"crosspkg/lib"
)

// ---- guarded fields ----

func direct(c *lib.C) {
	c.Mu.Lock()
	c.M["a"]++
	c.Mu.Unlock()
}

func directRacy(c *lib.C) int {
	return c.M["a"] // want `c.M read while c.Mu is not known to be held`
}

func unexportedLock(c *lib.C) {
	c.N++ // want `c.N written while c.mu is not known to be held`
}

// ---- inferred helper effects ----

func viaHelpers(c *lib.C) {
	c.Lock2()
	c.N++
	c.IncLocked()
	c.Unlock2()
}

func viaHelpersDefer(c *lib.C) int {
	c.Lock2()
	defer c.Unlock2()
	c.N++
	return c.N
}

func viaHelpersAfterUnlock(c *lib.C) {
	c.Lock2()
	c.Unlock2()
	c.N++ // want `c.N written while c.mu is not held`
}

func viaReadHelpers(c *lib.C) int {
	c.RLockM()
	defer c.RUnlockM()
	return c.M["a"] + c.Lookup("b")
}

func viaReadHelpersWrite(c *lib.C) {
	c.RLockM()
	c.M["a"] = 1 // want `c.M written while c.Mu is read-locked`
	c.RUnlockM()
}

func viaTransitiveHelper(c *lib.C) {
	c.LockBoth()
	c.N++
	c.M["a"] = c.N
	c.UnlockBoth()
}

// A helper in this package calling a helper in lib.
func lockC(c *lib.C) { c.Lock2() }

func viaLocalHelper(c *lib.C) {
	lockC(c)
	c.N++
	c.Unlock2()
}

// Helpers from a package without any directives.
func viaPlainHelpers(c *lib.C) {
	helpers.RLockIt(&c.Mu)
	_ = c.M["a"]
	helpers.RUnlockIt(&c.Mu)
}

func viaPlainHelpersWrongInstance(c, d *lib.C) {
	helpers.RLockIt(&c.Mu)
	_ = d.M["a"] // want `d.M read while d.Mu is not known to be held`
	helpers.RUnlockIt(&c.Mu)
}

// ---- declared contracts ----

func callHolds(c *lib.C) {
	c.IncLocked() // want `call to c.IncLocked needs c.mu locked \(//guard:holds c.mu\)`
}

func callRHolds(c *lib.C) int {
	return c.Lookup("a") // want `call to c.Lookup needs c.Mu read- or write-locked \(//guard:rholds c.Mu\)`
}

func callExcludes(c *lib.C) {
	c.Inc()
	c.Lock2()
	c.Inc() // want `call to c.Inc needs c.mu not held \(//guard:excludes c.mu\), but c.mu is locked here`
	c.Unlock2()
}

func acquireRelease(c *lib.C) {
	c.Acquire()
	c.N++
	c.Release()
	c.N++ // want `c.N written while c.mu is not held`
}

func acquireTwice(c *lib.C) {
	c.Acquire()
	c.Acquire() // want `call to c.Acquire locks c.mu, which is already locked here`
	c.Release()
}

func releaseNotHeld(c *lib.C) {
	c.Acquire()
	c.Release()
	c.Release() // want `call to c.Release needs c.mu locked \(//guard:releases c.mu\)`
}

func pair(a, b *lib.C) int {
	a.Lock2()
	defer a.Unlock2()
	b.Lock2()
	defer b.Unlock2()
	return lib.LockedPair(a, b) + lib.LockedPair(b, a)
}

func pairMissing(a, b *lib.C) int {
	a.Lock2()
	defer a.Unlock2()
	return lib.LockedPair(a, b) // want `call to lib.LockedPair needs b.mu locked \(//guard:holds b.mu\)`
}

func goHolds(c *lib.C) {
	c.Lock2()
	defer c.Unlock2()
	go c.IncLocked() // want `go c.IncLocked runs in a new goroutine`
}

// ---- lock balance through helpers ----

// ---- a local type embedding lib.C ----

type Wrapper struct {
	lib.C
	tag string //guard:by Mu
}

func (w *Wrapper) inc() {
	w.Lock2()
	w.N++
	w.IncLocked()
	w.Unlock2()
}

func (w *Wrapper) racy() int {
	return w.N // want `w.N read while w.mu is not known to be held`
}

func earlyReturnViaHelper(c *lib.C, err error) error {
	c.Lock2()
	if err != nil {
		return err // want `return with c.mu still locked, but later paths unlock it`
	}
	c.N++
	c.Unlock2()
	return nil
}
