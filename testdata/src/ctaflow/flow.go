// Package ctaflow has the check-then-act shapes whose dependence is a
// matter of control flow: guard clauses nested in other statements, in an
// else, in a switch or a select, exits by goto, labeled continue and calls
// that never return, and re-checks made in loops or in every branch. Each
// reported function is followed by a twin that stays silent. checkthenact
// decides these on the go/cfg graph (post-dominance, every path), not on
// the syntax around the write.
package ctaflow

import (
	"log"
	"sync"
)

type Sess struct{ id int }

type Reg struct {
	mu   sync.Mutex
	cond *sync.Cond
	p    *Sess            //guard:by mu
	m    map[string]*Sess //guard:by mu
	busy bool             //guard:by mu
}

func work() {}

// ---- an early return inside a nested block ----

func (r *Reg) NestedReturn(strict bool) *Sess {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if strict {
		if p != nil {
			return p
		}
	}
	np := &Sess{}
	r.mu.Lock()
	r.p = np // want `check-then-act: r.p was read at line 31 and the lock released`
	r.mu.Unlock()
	return np
}

// Twin: r.p is looked at again under the lock that writes, on every
// path to the write. (Repeating the nested check as it was, inside if
// strict, would leave the other path without one, and is reported.)
func (r *Reg) NestedReturnOK(strict bool) *Sess {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if strict {
		if p != nil {
			return p
		}
	}
	np := &Sess{}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p != nil && strict {
		return r.p
	}
	r.p = np
	return np
}

// ---- the early exit in an else ----

func (r *Reg) ElseReturn() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		work()
	} else {
		return
	}
	r.mu.Lock()
	r.p = &Sess{} // want `check-then-act: r.p was read at line 71 and the lock released`
	r.mu.Unlock()
}

// Twin: the else does not leave, so the write runs either way: a plain
// overwrite, not an act on what was read.
func (r *Reg) ElseNoExitOK() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		work()
	} else {
		work()
	}
	r.mu.Lock()
	r.p = &Sess{}
	r.mu.Unlock()
}

// ---- a switch: an early case, and fallthrough ----

func (r *Reg) SwitchFallthrough(force bool) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	switch {
	case p != nil:
		return
	case force:
		work()
		fallthrough
	default:
		r.mu.Lock()
		r.p = &Sess{} // want `check-then-act: r.p was read at line 103 and the lock released`
		r.mu.Unlock()
	}
}

// Twin: the case on p falls through into the write, which runs either
// way. The switch around the write does not decide it.
func (r *Reg) SwitchFallthroughOK() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	switch p {
	case nil:
		work()
		fallthrough
	default:
		r.mu.Lock()
		r.p = &Sess{}
		r.mu.Unlock()
	}
}

// ---- a select ----

func (r *Reg) SelectReturn(tick <-chan struct{}) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	select {
	case <-tick:
		if p != nil {
			return
		}
	default:
	}
	r.mu.Lock()
	r.p = &Sess{} // want `check-then-act: r.p was read at line 139 and the lock released`
	r.mu.Unlock()
}

// Twin: break leaves only the select; the write runs either way.
func (r *Reg) SelectBreakOK(tick <-chan struct{}) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	select {
	case <-tick:
		if p != nil {
			break
		}
		work()
	default:
	}
	r.mu.Lock()
	r.p = &Sess{}
	r.mu.Unlock()
}

// ---- goto ----

func (r *Reg) GotoInstall() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		goto install
	}
	return
install:
	r.mu.Lock()
	r.p = &Sess{} // want `check-then-act: r.p was read at line 175 and the lock released`
	r.mu.Unlock()
}

// Twin: the goto jumps to the write, which the other way reaches too.
func (r *Reg) GotoAnywayOK() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		goto install
	}
	work()
install:
	r.mu.Lock()
	r.p = &Sess{}
	r.mu.Unlock()
}

// ---- labeled continue from an inner loop ----

func (r *Reg) AddUnlessListed(ks, listed []string) {
outer:
	for _, k := range ks {
		r.mu.Lock()
		_, ok := r.m[k]
		r.mu.Unlock()
		for range listed {
			if ok {
				continue outer
			}
		}
		r.mu.Lock()
		r.m[k] = &Sess{} // want `check-then-act: r.m\[k\] was read at line 208 and the lock released`
		r.mu.Unlock()
	}
}

// Twin: the lookup is repeated in the section that inserts.
func (r *Reg) AddUnlessListedOK(ks, listed []string) {
outer:
	for _, k := range ks {
		r.mu.Lock()
		_, ok := r.m[k]
		r.mu.Unlock()
		for range listed {
			if ok {
				continue outer
			}
		}
		r.mu.Lock()
		if _, ok := r.m[k]; !ok {
			r.m[k] = &Sess{}
		}
		r.mu.Unlock()
	}
}

// ---- a call that never returns ----

func (r *Reg) FatalIfInstalled() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		log.Fatalf("installed twice")
	}
	r.mu.Lock()
	r.p = &Sess{} // want `check-then-act: r.p was read at line 245 and the lock released`
	r.mu.Unlock()
}

// Twin: panic on the re-check, in the section that writes.
func (r *Reg) PanicIfInstalledOK() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p != nil {
		panic("installed twice")
	}
	r.p = &Sess{}
}

// ---- a loop whose body re-checks ----

// The wait loop looks at r.p in every iteration, after every Wait, and
// leaves through the break only after that look: the write acts on a
// fresh read on every path.
func (r *Reg) InstallAfterWaitOK() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		return
	}
	np := &Sess{}
	r.mu.Lock()
	for {
		if r.p != nil {
			r.mu.Unlock()
			return
		}
		if !r.busy {
			break
		}
		r.cond.Wait()
	}
	r.p = np
	r.mu.Unlock()
}

// Here the look is only made while busy: when it is not, the write acts on
// the read made before the lock was last taken.
func (r *Reg) InstallAfterWait() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		return
	}
	np := &Sess{}
	r.mu.Lock()
	for r.busy {
		if r.p != nil {
			r.mu.Unlock()
			return
		}
		r.cond.Wait()
	}
	r.p = np // want `check-then-act: r.p was read at line 297 and the lock released`
	r.mu.Unlock()
}

// ---- a re-check in every branch ----

func (r *Reg) RecheckBothWaysOK(fast bool) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if fast {
		if r.p != nil {
			return
		}
	} else {
		work()
		if r.p != nil {
			return
		}
	}
	r.p = &Sess{}
}

// One branch forgets it.
func (r *Reg) RecheckOneWay(fast bool) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if fast {
		if r.p != nil {
			return
		}
	} else {
		work()
	}
	r.p = &Sess{} // want `check-then-act: r.p was read at line 342 and the lock released`
}

// ---- a loop that never ends ----

func (r *Reg) ServeForever(next func() string) {
	for {
		k := next()
		r.mu.Lock()
		_, ok := r.m[k]
		r.mu.Unlock()
		if ok {
			continue
		}
		r.mu.Lock()
		r.m[k] = &Sess{} // want `check-then-act: r.m\[k\] was read at line 365 and the lock released`
		r.mu.Unlock()
	}
}

// Twin: what follows the check in the endless loop does not depend on it.
func (r *Reg) ServeForeverOK(next func() string) {
	for {
		k := next()
		r.mu.Lock()
		_, ok := r.m[k]
		r.mu.Unlock()
		if ok {
			work()
		}
		r.mu.Lock()
		delete(r.m, "")
		r.mu.Unlock()
	}
}

// ---- a re-check in the same switch case as the write ----

// The look and the write share a case: the look is on every path to the
// write.
func (r *Reg) SwitchRecheckOK(mode int) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch mode {
	case 1:
		if r.p != nil {
			return
		}
		r.p = &Sess{}
	}
}

// ---- a loop that drops the lock in its body ----

type Clock struct {
	mu    sync.Mutex
	now   int   //guard:by mu
	times []int //guard:by mu
}

// until is computed from now before the loop; each iteration after the
// first runs in the section taken back at its end, where now was not
// read again (faketime's ManualClock.Advance).
func (c *Clock) Advance(d int, fire func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	until := c.now + d
	for len(c.times) > 0 {
		t := c.times[0]
		if t > until {
			break
		}
		c.times = c.times[1:]
		c.now = t // want `check-then-act: c.now was read at line 428 and the lock released`
		c.mu.Unlock()
		fire()
		c.mu.Lock()
	}
	c.now = until // want `check-then-act: c.now was read at line 428 and the lock released`
}

// Twin: the target is recomputed from a fresh read in every section.
func (c *Clock) AdvanceOK(d int, fire func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.times) > 0 {
		t := c.times[0]
		if t > c.now+d {
			break
		}
		c.times = c.times[1:]
		c.now = t
		c.mu.Unlock()
		fire()
		c.mu.Lock()
	}
}

// ---- a panic nested in another branch ----

func (r *Reg) PanicNested(strict bool) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if strict {
		if p != nil {
			panic("installed twice")
		}
	}
	r.mu.Lock()
	r.p = &Sess{} // want `check-then-act: r.p was read at line 464 and the lock released`
	r.mu.Unlock()
}

// Twin: the panic is on another value; the branch on p leaves no way
// around the write.
func (r *Reg) PanicOtherOK(bad bool) {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p != nil {
		work()
	}
	if bad {
		panic("bad")
	}
	r.mu.Lock()
	r.p = &Sess{}
	r.mu.Unlock()
}

// ---- the lock taken back by a helper on one way ----

//guard:acquires r.mu
func (r *Reg) lock() { r.mu.Lock() }

// The look at r.p was made in the first section. The lock is released,
// then taken back by the helper on one way and directly on the other: on
// both, the write is in a new section.
func (r *Reg) RelockEitherWay(fast bool) {
	r.mu.Lock()
	if r.p != nil {
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	if fast {
		r.lock()
	} else {
		work()
		r.mu.Lock()
	}
	r.p = &Sess{} // want `check-then-act: r.p was read at line 503 and the lock released`
	r.mu.Unlock()
}

// Twin: the look is repeated after the lock is taken back.
func (r *Reg) RelockEitherWayOK(fast bool) {
	if fast {
		r.lock()
	} else {
		work()
		r.mu.Lock()
	}
	defer r.mu.Unlock()
	if r.p != nil {
		return
	}
	r.p = &Sess{}
}

// ---- a wait loop with another way out ----

func (r *Reg) isBusy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busy
}

func (r *Reg) setBusy(b bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy = b
}

// The claim runs only if the loop saw r.busy false: the return on cancel
// is the other way out.
func (r *Reg) ClaimWhenIdle(cancel <-chan struct{}) {
	for r.isBusy() {
		select {
		case <-cancel:
			return
		default:
		}
		work()
	}
	r.setBusy(true) // want `check-then-act: r.busy was read at line 550 \(in r.isBusy\) and the lock released`
}

// Twin: claimed with a re-check under the lock that writes.
func (r *Reg) ClaimWhenIdleOK(cancel <-chan struct{}) {
	for r.isBusy() {
		select {
		case <-cancel:
			return
		default:
		}
		work()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busy {
		return
	}
	r.busy = true
}
