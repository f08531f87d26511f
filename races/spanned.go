package races

import (
	"golang.org/x/tools/go/ssa"
)

// Locks held across a goroutine's whole life.
//
// pkg/sftp's File.Read takes f.mu and calls readAt, which starts workers
// and waits for every one of them before it returns; Read releases f.mu
// after. The workers take no lock, yet nothing that needs f.mu (Close
// setting f.handle) can run while they do: their spawner holds f.mu from
// before their go statement to after their end. A goroutine whose
// spawner holds a lock at its go statement, releases it nowhere in the
// function with that statement (but by a deferred call, which runs after
// the function's waits), and waits for the goroutine before every return,
// runs inside that critical section. Its accesses race with no access
// that holds the lock, nor with another goroutine that runs inside a
// critical section of it, except the spawner's own code between the go
// statement and the wait (the spawner does hold the lock there, and runs
// at the same time as the goroutine): any access of the spawner's root in
// the function with the statement or in what it calls, and the goroutines
// started there.

// spanLocks is the locks the spawner, in fn in context c, holds at the go
// statement instr and releases nowhere in fn but by a deferred call.
func (a *run) spanLocks(fn *ssa.Function, c *context, instr ssa.Instruction) lockSet {
	if _, ok := instr.(*ssa.Go); !ok {
		return nil
	}
	var out lockSet
	for k := range a.bodyLocksOf(fn).held(instr, c.entry) {
		if !a.releasesIn(fn, k) {
			if out == nil {
				out = lockSet{}
			}
			out[k] = true
		}
	}
	return out
}

// releasesIn reports whether a call of fn, not deferred, can release k:
// an Unlock, or a call whose callees all release it.
func (a *run) releasesIn(fn *ssa.Function, k string) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op, isLock := asLockOp(call); isLock {
				if !op.acquire && op.key == k {
					return true
				}
				continue
			}
			if a.callEffect(call)[k] < 0 {
				return true
			}
		}
	}
	return false
}

// spans reports whether x's goroutine runs inside a critical section of
// a lock y holds, or y's goroutine runs inside one too, and y is not
// code its spawner can run meanwhile: then they cannot run at the same
// time.
func (a *run) spans(x, y *site) bool {
	c := x.root
	if !a.spanning(c) {
		return false
	}
	common := false
	for k := range c.spanned {
		if y.held[k] || y.root.spanned[k] && a.spanning(y.root) {
			common = true
			break
		}
	}
	return common && !a.inWindow(c, y.root, y.fn)
}

// spanning reports whether c has spanned locks and its spawner waits for
// it before every return (worked out once).
func (a *run) spanning(c *root) bool {
	if len(c.spanned) == 0 || c.site == nil {
		return false
	}
	if c.spanWaited == nil {
		w := a.waitsAfter(c.site, returns(c.siteFn), a.joinsOf(c), c.sent)
		c.spanWaited = &w
	}
	return *c.spanWaited
}

// inWindow reports whether code of r in fn may be c's spawner's own while
// c runs: its root's code in the function with c's go statement or in
// what that calls, or a goroutine started there.
func (a *run) inWindow(c, r *root, fn *ssa.Function) bool {
	spawnerCode := func(f *ssa.Function) bool { return f == c.siteFn || a.reachable(c.siteFn)[f] }
	switch {
	case r == c:
		return true // another instance of c, started by the same spawner
	case r == c.parent:
		return spawnerCode(fn)
	case r.parent == c.parent && r.siteFn != nil:
		return spawnerCode(r.siteFn)
	}
	return false
}
