package lockstate

// Lock operations: Lock, Unlock and friends (also methods recognised by
// their effect), DowngradeLock, deferred calls and the release paired
// with a lock, and conditions that show two pointers equal.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// lockMethodCall recognises a lock operation by its effect rather than its
// name: a method of a lock type T (one with Lock and Unlock) that acquires
// or releases exactly what T's own Lock, RLock, Unlock or RUnlock does, and
// nothing else, is that operation on its receiver (lockdep's
// NestedLock(class) calls m.mu.Lock() as Lock does). This needs T's own
// operations to be modelled by their effects; a type whose read side lives
// in atomics (an RLock with no lock effect) is not, and a DowngradeLock
// that releases what Unlock releases is not an Unlock.
func (fa *funcAnalysis) lockMethodCall(call *ast.CallExpr) (locks.Call, bool) {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return locks.Call{}, false
	}
	sel := fa.info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return locks.Call{}, false
	}
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "sync" {
		return locks.Call{}, false
	}
	// The type that declares the method (a named type, so the package's
	// memory of lock types hits); a promoted method operates on the
	// embedded value.
	recv := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	isLock, rw := fa.a.isLockType(recv)
	if !isLock {
		return locks.Call{}, false
	}
	op, effect := fa.a.receiverEffect(fn)
	if op == locks.NoOp {
		return locks.Call{}, false
	}
	ops := []locks.Op{locks.Lock, locks.Unlock}
	if rw {
		ops = append(ops, locks.RLock, locks.RUnlock)
	}
	for _, o := range ops {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, fn.Pkg(), o.String())
		own, _ := obj.(*types.Func)
		if own == nil || own == fn {
			return locks.Call{}, false
		}
		ownOp, ownEffect := fa.a.receiverEffect(own)
		if ownOp != o {
			return locks.Call{}, false // T's own operation is not modelled by its effect
		}
		if o == op && !slices.Equal(ownEffect, effect) {
			return locks.Call{}, false
		}
	}
	return locks.Call{Op: op, Receiver: se.X, Implicit: locks.ImplicitFields(sel)}, true
}

// receiverEffect returns the one kind of lock operation fn's contract and
// inferred effects perform, all on locks inside its receiver, and those
// locks (as sorted selectors from the receiver); NoOp if there is none, or
// more than one, or an effect on something else.
func (a *packageAnalysis) receiverEffect(fn *types.Func) (locks.Op, []string) {
	op := locks.NoOp
	var sels []string
	for _, c := range []*directives.Contract{a.dirs.Contract(fn), a.effectsOf(fn)} {
		if c == nil {
			continue
		}
		for _, k := range []struct {
			refs []directives.LockRef
			op   locks.Op
		}{{c.Acquires, locks.Lock}, {c.RAcquires, locks.RLock}, {c.Releases, locks.Unlock}, {c.RReleases, locks.RUnlock}, {c.Downgrades, locks.Downgrade}} {
			for _, r := range k.refs {
				if r.Kind != directives.Param || r.Param != directives.Receiver || (op != locks.NoOp && op != k.op) {
					return locks.NoOp, nil
				}
				op = k.op
				if !slices.Contains(sels, r.Sel) {
					sels = append(sels, r.Sel)
				}
			}
		}
	}
	slices.Sort(sels)
	return op, sels
}

// downgrade applies DowngradeLock to p: held for writing before, it is
// read-locked after, in the same critical section (no other writer got in
// between), so the site stays that of the lock. A lock nothing here has
// touched yet was held for writing by the caller.
func (fa *funcAnalysis) downgrade(s *State, p lockpath.Path, pos token.Pos, deferred bool) {
	v := LockVal{Mode: Shared, Site: pos}
	if deferred {
		s.setDeferred(p, deferredOp(v))
		return
	}
	before := s.Lock(p)
	if before.Mode.Held() {
		v.Site = before.Site
	}
	fa.firstUse(s, p, LockVal{Mode: NotHeld}) // released by the downgrade: the caller held it
	s.set(p, v)
}

// lockOp applies x.Lock() and friends. inner applies the effect of the
// method's body (on locks inside x); a deferred call's replay needs it. It
// returns inner as the caller must apply it: on the paired lock's value,
// for a release paired with another name of the lock (pairedRelease).
func (fa *funcAnalysis) lockOp(call *ast.CallExpr, lc locks.Call, s *State, deferred bool, inner func(*State, bool)) func(*State, bool) {
	p := fa.canon(fa.res.LockOf(lc))
	if !p.Valid() {
		return inner
	}
	if deferred {
		if x := fa.pairedRelease(call, lc, p, s); x != p {
			// What the lock type's Unlock does inside its value happens
			// inside the paired lock's value too.
			from, to, body := p, x, inner
			inner = func(st *State, deferred bool) {
				fa.recvFrom, fa.recvTo = from, to
				body(st, deferred)
				fa.recvFrom, fa.recvTo = lockpath.Path{}, lockpath.Path{}
			}
			p = x
		}
	}
	if fa.final && fa.rec != nil && !deferred {
		fa.rec.LockOps = append(fa.rec.LockOps, &LockOp{Node: call, Op: lc.Op, Lock: p, Before: s.Lock(p), State: s.snapshot(), Forced: fa.a.dirs.ForcedAt(fa.a.pass.Fset, call.Lparen)})
	}
	if lc.Op == locks.Downgrade {
		paths := []lockpath.Path{p}
		if len(lc.Implicit) > 0 {
			if base := fa.res.Of(lc.Receiver); base.Valid() {
				paths = append(paths, fa.canon(base))
			}
		}
		for _, q := range paths {
			fa.downgrade(s, q, call.Pos(), deferred)
		}
		if deferred {
			fa.addDefer(call, s, func(st *State) {
				for _, q := range paths {
					fa.downgrade(st, q, call.Pos(), false)
				}
				inner(st, false)
			}, func(st *State, rec *Func) {
				rec.LockOps = append(rec.LockOps, &LockOp{Node: call, Op: lc.Op, Lock: p, Before: st.Lock(p), State: st, Forced: fa.a.dirs.ForcedAt(fa.a.pass.Fset, call.Lparen)})
			})
		}
		return inner
	}
	var v LockVal
	switch lc.Op {
	case locks.Lock:
		v = LockVal{Mode: Exclusive}
	case locks.RLock:
		v = LockVal{Mode: Shared}
	case locks.Unlock:
		v = LockVal{Mode: NotHeld}
	case locks.RUnlock:
		v = LockVal{Mode: NotHeld, Read: true}
	default: // TryLock outside a condition: held on some paths only
		v = LockVal{Mode: Maybe}
	}
	v.Site = call.Pos()
	paths := []lockpath.Path{p}
	if len(lc.Implicit) > 0 {
		// t.mu.Unlock() promoted from an embedded sync.Mutex also unlocks
		// t.mu itself, which a wrapper's own Lock method may have locked.
		if base := fa.res.Of(lc.Receiver); base.Valid() {
			paths = append(paths, fa.canon(base))
		}
	}
	for _, q := range paths {
		fa.setOrDefer(s, q, v, deferred)
	}
	if deferred {
		fa.addDefer(call, s, func(st *State) {
			for _, q := range paths {
				st.set(q, v)
			}
			inner(st, false) // and what the method's body does inside
		}, func(st *State, rec *Func) {
			rec.LockOps = append(rec.LockOps, &LockOp{Node: call, Op: lc.Op, Lock: p, Before: st.Lock(p), State: st, Forced: fa.a.dirs.ForcedAt(fa.a.pass.Fset, call.Lparen)})
		})
	}
	return inner
}

// pairedRelease returns the lock a deferred release written right after
// a lock operation releases: x.mu.Lock(); defer y.mu.Unlock() names one
// lock twice when both paths end in the same lock field and y.mu is not
// known here in any state (nothing on this path touched it), however each
// path is reached (gVisor's gofer locks i.handleMu through a receiver that
// embeds the inode d.inode points to, and defers d.inode.handleMu.Unlock()).
// A lock operation with a deferred release is Go's idiom for one critical
// section; unlocking a different, unheld mutex would be a fatal error. When
// the deferred path is held, or the lock fields differ, it is p itself.
func (fa *funcAnalysis) pairedRelease(call *ast.CallExpr, lc locks.Call, p lockpath.Path, s *State) lockpath.Path {
	if !lc.Op.Releases() || s.Lock(p) != (LockVal{}) {
		return p
	}
	if fa.deferPairs == nil {
		fa.deferPairs = deferPairs(fa.info, fa.body)
	}
	acq := fa.deferPairs[call]
	if acq == nil {
		return p
	}
	alc, ok := locks.AsCall(fa.info, acq)
	if !ok || (alc.Op == locks.Lock) != (lc.Op == locks.Unlock) {
		return p
	}
	x := fa.canon(fa.res.LockOf(alc))
	if !x.Valid() || x == p {
		return p
	}
	if f := lockpath.LockVar(x); f == nil || f != lockpath.LockVar(p) {
		return p
	}
	return x
}

// deferPairs maps each deferred lock release written as the statement
// right after a lock acquisition, in the same block, to that acquisition.
func deferPairs(info *types.Info, body *ast.BlockStmt) map[*ast.CallExpr]*ast.CallExpr {
	pairs := map[*ast.CallExpr]*ast.CallExpr{}
	scan := func(list []ast.Stmt) {
		for i := 1; i < len(list); i++ {
			d, ok := list[i].(*ast.DeferStmt)
			if !ok {
				continue
			}
			es, ok := list[i-1].(*ast.ExprStmt)
			if !ok {
				continue
			}
			acq, ok := ast.Unparen(es.X).(*ast.CallExpr)
			if !ok {
				continue
			}
			if a, isLock := locks.AsCall(info, acq); !isLock || !a.Op.Acquires() {
				continue
			}
			if r, isLock := locks.AsCall(info, d.Call); isLock && r.Op.Releases() {
				pairs[d.Call] = acq
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if list, ok := astq.StmtList(n); ok {
			scan(list)
		}
		return true
	})
	return pairs
}

// sameCond splits the state on a == b or a != b between two pointers that
// each name one object throughout the function: on the branch where they
// are equal, the locks inside one are the locks inside the other, so what
// is known of one is known of both. gVisor's AssertLockHeld panics unless
// its argument, whose lock its caller holds, is its receiver, and so holds
// the receiver's lock after the check.
func (fa *funcAnalysis) sameCond(e ast.Expr, s *State) (t, f *State, ok bool) {
	be, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || (be.Op != token.EQL && be.Op != token.NEQ) {
		return nil, nil, false
	}
	root := func(x ast.Expr) *types.Var {
		id, isID := ast.Unparen(x).(*ast.Ident)
		if !isID {
			return nil
		}
		v, _ := fa.info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || !fa.res.Stable(v) {
			return nil
		}
		if _, isPtr := v.Type().Underlying().(*types.Pointer); !isPtr {
			return nil
		}
		return v
	}
	a, b := root(be.X), root(be.Y)
	if a == nil || b == nil || a == b || !types.Identical(a.Type(), b.Type()) {
		return nil, nil, false
	}
	// Only worth a split when a lock inside either is known.
	var known []lockpath.Path
	for _, p := range s.Paths() { // sorted: the result does not depend on map order
		if (p.Root == a || p.Root == b) && s.Lock(p).Mode != Unknown {
			known = append(known, p)
		}
	}
	if len(known) == 0 {
		return nil, nil, false
	}
	fa.expr(e, s, useBase)
	same := s.clone()
	for _, p := range known {
		other := lockpath.Path{Root: a, Sel: p.Sel}
		if p.Root == a {
			other.Root = b
		}
		// One lock under two names: what holds it wins (an entry
		// assumption that it is free is about the other name).
		if v, w := s.Lock(p), same.Lock(other); w.Mode == Unknown || (v.Mode.Held() && !w.Mode.Held()) {
			same.set(other, v)
		}
	}
	same.setSame(a, b) // and what follows on that branch changes both names
	if be.Op == token.EQL {
		return same, s, true
	}
	return s, same, true
}

func (fa *funcAnalysis) deferStmt(d *ast.DeferStmt, s *State) {
	fa.call(d.Call, s, true)
}

// isLockType is locks.IsLock, remembered per type for the package: every
// method call asks it of the method's receiver type.
func (a *packageAnalysis) isLockType(t types.Type) (isLock, rw bool) {
	if v, ok := a.lockTypes[t]; ok {
		return v[0], v[1]
	}
	if a.lockTypes == nil {
		a.lockTypes = map[types.Type][2]bool{}
	}
	isLock, rw = locks.IsLock(t)
	a.lockTypes[t] = [2]bool{isLock, rw}
	return isLock, rw
}
