package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// call walks a call: its operands first, then its lock effect.
func (fa *funcAnalysis) call(call *ast.CallExpr, s *State, deferred bool) {
	fun := ast.Unparen(call.Fun)
	if tv, ok := fa.info.Types[fun]; ok && tv.IsType() { // conversion
		for _, arg := range call.Args {
			fa.expr(arg, s, useRead)
		}
		return
	}
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := fa.info.Uses[id].(*types.Builtin); ok {
			fa.builtin(b.Name(), call, s)
			return
		}
	}
	if se, ok := fun.(*ast.SelectorExpr); ok {
		if b, ok := fa.info.Uses[se.Sel].(*types.Builtin); ok { // unsafe.X
			switch b.Name() {
			case "Offsetof", "Sizeof", "Alignof": // constants: the operand is not evaluated
			default:
				fa.builtin(b.Name(), call, s)
			}
			return
		}
	}
	lc, ok := locks.AsCall(fa.info, call)
	if !ok {
		lc, ok = fa.lockMethodCall(call)
	}
	if ok {
		fa.expr(lc.Receiver, s, useBase)
		for _, arg := range call.Args { // NestedLock(class)
			fa.expr(arg, s, useRead)
		}
		// A type's own Lock method (type C struct{ mu sync.Mutex } with
		// func (c *C) Lock() { c.mu.Lock() }) locks both c and what its
		// body locks, so guards may name either.
		inner := func(*State, bool) {}
		if callee := typeutil.StaticCallee(fa.info, call); callee != nil && callee.Pkg() != nil && callee.Pkg().Path() != "sync" {
			inner = func(st *State, deferred bool) {
				fa.applyContract(call, callee, fa.a.dirs.Contract(callee), st, deferred)
				fa.applyEffects(call, callee, fa.a.effectsOf(callee), st, deferred)
			}
		}
		inner = fa.lockOp(call, lc, s, deferred, inner)
		inner(s, deferred)
		return
	}
	lit, _ := fun.(*ast.FuncLit)
	if lit == nil {
		lit = fa.localLit(fun)
	}
	if lit != nil {
		for _, arg := range call.Args {
			fa.expr(arg, s, useRead)
		}
		eff := fa.a.closureEffects(fa, lit)
		if !deferred {
			fa.closure(lit, s, Inline) // runs with the caller's locks, then changes them
			fa.applyChanges(eff, s, false, call.Pos())
			return
		}
		fa.applyChanges(eff, s, true, call.Pos())
		if fa.rec == nil {
			fa.closure(lit, s, Escaping) // summarising: runs at return, assume no locks
		}
		fa.addDefer(call, s, func(st *State) { fa.applyChanges(eff, st, false, call.Pos()) }, func(st *State, rec *Func) {
			fa.closureAnalysis(lit).analyse(st, &Func{Decl: fa.decl, Lit: lit, Obj: fa.fn, Context: Deferred})
		})
		return
	}
	callee := typeutil.StaticCallee(fa.info, call)
	fa.operands(call, callee, s)
	if callee == nil {
		return
	}
	contract := fa.a.dirs.Contract(callee)
	effects := fa.a.effectsOf(callee)
	forced := !contract.Empty() && fa.a.dirs.ForcedAt(fa.a.pass.Fset, call.Lparen)
	if forced {
		fa.forceContract(call, callee, contract, s)
	}
	if fa.final && fa.rec != nil && !deferred {
		// Every static call is recorded with the locks held at it: rules
		// also care about callees that lock internally or block.
		fa.rec.Calls = append(fa.rec.Calls, &Call{Node: call, Callee: callee, Contract: contract, Effects: effects, State: s.snapshot(), Forced: forced})
	}
	if !deferred {
		fa.applyRetakes(call, callee, s)
	}
	if contract.Empty() && effects.Empty() && !fa.a.condAcquirer(callee) {
		return
	}
	fa.applyContract(call, callee, contract, s, deferred)
	fa.applyEffects(call, callee, effects, s, deferred)
	if !deferred {
		// Held only if it succeeded: outside a condition that decides it
		// (see tryLockCond), held on some paths only.
		for _, t := range fa.condTargets(call, nil) {
			s.set(t.lock, LockVal{Mode: Maybe, Site: call.Pos()})
		}
	}
	if deferred {
		fa.addDefer(call, s, func(st *State) {
			fa.applyContract(call, callee, contract, st, false)
			fa.applyEffects(call, callee, effects, st, false)
		}, func(st *State, rec *Func) {
			rec.Calls = append(rec.Calls, &Call{Node: call, Callee: callee, Contract: contract, Effects: effects, State: st, Deferred: true, Forced: forced})
		})
	}
}

// forceContract applies +checklocksforce to a call: the locks the callee
// needs held (holds, releases; rholds, rreleases in read mode at least)
// are held from here on, as for a forced field access.
func (fa *funcAnalysis) forceContract(call *ast.CallExpr, callee *types.Func, c *directives.Contract, s *State) {
	force := func(refs []directives.LockRef, mode Mode) {
		for _, r := range refs {
			p := fa.refAtCall(r, call, callee)
			if !p.Valid() {
				continue
			}
			if v := s.Lock(p); v.Mode == Exclusive || (mode == Shared && v.Mode.Held()) {
				continue
			}
			s.set(p, LockVal{Mode: mode, Site: call.Pos()})
		}
	}
	force(c.Holds, Exclusive)
	force(c.Releases, Exclusive)
	force(c.RHolds, Shared)
	force(c.RReleases, Shared)
}

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
	// The type that declares the method (a named type, so IsLock's cache
	// hits); a promoted method operates on the embedded value.
	recv := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	isLock, rw := locks.IsLock(recv)
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

// resultEffects applies contract paths rooted at a callee's named results
// to the variables its results are assigned to: t := newLocked().
func (fa *funcAnalysis) resultEffects(rhs ast.Expr, lhs []ast.Expr, s *State) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		return
	}
	callee := typeutil.StaticCallee(fa.info, call)
	if callee == nil {
		return
	}
	nparams := callee.Type().(*types.Signature).Params().Len()
	for _, c := range []*directives.Contract{fa.a.dirs.Contract(callee), fa.a.effectsOf(callee)} {
		if c == nil {
			continue
		}
		apply := func(refs []directives.LockRef, v LockVal) {
			for _, r := range refs {
				if r.Kind != directives.Param || r.Param < nparams || r.Param-nparams >= len(lhs) {
					continue
				}
				if base := fa.res.Of(lhs[r.Param-nparams]); base.Valid() {
					v.Site = call.Pos()
					s.set(fa.canon(lockpath.Path{Root: base.Root, Sel: base.Sel + r.Sel}), v)
				}
			}
		}
		apply(c.Acquires, LockVal{Mode: Exclusive})
		apply(c.RAcquires, LockVal{Mode: Shared})
	}
	// Held only if it succeeded: outside a condition that decides it (see
	// tryLockCond), held on some paths only.
	for _, t := range fa.condTargets(call, lhs) {
		s.set(t.lock, LockVal{Mode: Maybe, Site: call.Pos()})
	}
}

// applyContract applies a callee's acquire and release effects, with its
// receiver and arguments substituted.
func (fa *funcAnalysis) applyContract(call *ast.CallExpr, callee *types.Func, c *directives.Contract, s *State, deferred bool) {
	if c == nil {
		return
	}
	apply := func(refs []directives.LockRef, v LockVal) {
		for _, r := range refs {
			if p := fa.refAtCall(r, call, callee); p.Valid() {
				v.Site = call.Pos()
				fa.setOrDefer(s, p, v, deferred)
			}
		}
	}
	apply(c.Acquires, LockVal{Mode: Exclusive})
	apply(c.RAcquires, LockVal{Mode: Shared})
	apply(c.Releases, LockVal{Mode: NotHeld})
	apply(c.RReleases, LockVal{Mode: NotHeld, Read: true})
	for _, r := range c.Downgrades {
		if p := fa.refAtCall(r, call, callee); p.Valid() {
			fa.downgrade(s, p, call.Pos(), deferred)
		}
	}
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

// applyEffects applies a callee's inferred effects: its acquires and
// releases, and the locks it takes and leaves free (Excludes in an
// inferred effect), which are not held after the call.
func (fa *funcAnalysis) applyEffects(call *ast.CallExpr, callee *types.Func, c *directives.Contract, s *State, deferred bool) {
	fa.applyContract(call, callee, c, s, deferred)
	if c == nil {
		return
	}
	for _, r := range c.Excludes {
		if p := fa.refAtCall(r, call, callee); p.Valid() {
			fa.setFreed(s, p, call.Pos(), deferred)
		}
	}
}

func (fa *funcAnalysis) setOrDefer(s *State, p lockpath.Path, v LockVal, deferred bool) {
	if deferred {
		s.setDeferred(p, deferredOp(v))
		return
	}
	fa.firstUse(s, p, v)
	s.set(p, v)
}

// firstUse notes the first operation on a lock that nothing on any path
// here has touched since the function's entry; it shows what the caller
// left it as. Unlocking an unlocked mutex is a fatal error, so a release
// means the caller holds it (read-locked, for RUnlock); taking it means
// the caller does not (else this deadlocks). The net effect is measured
// against that entry: a helper that steps out of its caller's lock and
// takes it back (testing.B.Run) changes nothing, and neither does one that
// locks and defers the unlock.
func (fa *funcAnalysis) firstUse(s *State, p lockpath.Path, v LockVal) {
	if cur := s.Lock(p); cur.Mode != Unknown || cur.Site != token.NoPos {
		return
	}
	if _, ok := fa.assumed[p]; ok {
		return
	}
	var mode Mode
	switch {
	case v.Mode == NotHeld && v.Read:
		mode = Shared
	case v.Mode == NotHeld:
		mode = Exclusive
	case v.Mode.Held():
		mode = NotHeld
	default:
		return
	}
	if fa.assumed == nil {
		fa.assumed = map[lockpath.Path]LockVal{}
	}
	fa.assumed[p] = LockVal{Mode: mode, Site: fa.entryPos()}
}

// entryPos is where the body starts, the site of locks held on entry.
func (fa *funcAnalysis) entryPos() token.Pos {
	if fa.lit != nil {
		return fa.lit.Pos()
	}
	return fa.decl.Name.Pos()
}

// impliedEntry is the entry state with the locks the body shows its caller
// holds or leaves free (see firstUse).
func (fa *funcAnalysis) impliedEntry(entry *State) *State {
	if len(fa.assumed) == 0 {
		return entry
	}
	out := entry.clone()
	for p, v := range fa.assumed {
		if out.Lock(p).Mode == Unknown {
			out.set(p, v)
		}
	}
	return out
}

func deferredOp(v LockVal) deferred { return deferred{mode: v.Mode, read: v.Read, site: v.Site} }

// operands walks the receiver and arguments of an ordinary call.
func (fa *funcAnalysis) operands(call *ast.CallExpr, callee *types.Func, s *State) {
	fun := ast.Unparen(call.Fun)
	if se, ok := fun.(*ast.SelectorExpr); ok {
		if sel := fa.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
			fa.receiver(se, sel, s)
		} else {
			fa.expr(fun, s, useBase)
		}
	} else {
		fa.expr(fun, s, useBase)
	}
	atomicFunc := callee != nil && callee.Pkg() != nil && callee.Pkg().Path() == "sync/atomic" && callee.Type().(*types.Signature).Recv() == nil
	sync := isSynchronousCallback(callee)
	methodExpr := false
	if se, ok := fun.(*ast.SelectorExpr); ok {
		if sel := fa.info.Selections[se]; sel != nil && sel.Kind() == types.MethodExpr {
			methodExpr = true
		}
	}
	for arg0, arg := range call.Args {
		i := arg0 // the callee's parameter index
		if methodExpr {
			i-- // (*T).m(x, a): x is the receiver
			if i < 0 {
				i = directives.Receiver
			}
		}
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			if sync {
				fa.closure(lit, s, Inline)
			} else if isAsynchronousCallback(callee) {
				fa.closure(lit, s, Goroutine)
			} else {
				fa.closure(lit, s, Escaping)
			}
			continue
		}
		if atomicFunc && i == 0 {
			if x := addrOperand(fa.info, arg); x != nil && fa.atomicTarget(x, s, !strings.HasPrefix(callee.Name(), "Load")) {
				continue
			}
			if fa.pacc != nil && fa.pointsInto(arg) != nil { // atomic.StoreUint32(p, v), p a pointer parameter
				u := useAtomicRead
				if !strings.HasPrefix(callee.Name(), "Load") {
					u = useAtomicWrite
				}
				fa.expr(arg, s, u)
				continue
			}
		}
		if fa.linkArg(call, callee, i, arg, s) {
			continue // stored only in the new object the call returns, which stays unpublished
		}
		kind := kindWrite
		if callee != nil && (i == directives.Receiver || i < callee.Type().(*types.Signature).Params().Len()) && astq.IsPointer(fa.info.TypeOf(arg)) && fa.kindMatters(arg, false) {
			kind = fa.a.paramKindOf(callee, i)
		}
		if kind == kindAtomicRead || kind == kindAtomicWrite {
			if x := addrOperand(fa.info, arg); x != nil && fa.atomicTarget(x, s, kind == kindAtomicWrite) {
				continue
			}
		}
		if kind != kindWrite {
			if fa.a.escapes(callee, i) {
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
					fa.publishIdent(id, s) // only read through, but kept where others can reach it
				} else if x := addrOperand(fa.info, arg); x != nil {
					fa.publishRoot(x, s)
				}
			}
			fa.expr(arg, s, kind.use()) // the callee only reads through it
			continue
		}
		if fa.opaqueArg(callee, arg) {
			fa.pacc.opaque = true // what it does is settled by fallbackAccess
		}
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok && !fa.a.escapes(callee, i) {
			fa.expr(id, s, useDeref) // the callee does not publish it, but may write through it
		} else if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND && !fa.a.escapes(callee, i) {
			fa.expr(u.X, s, useWrite) // &x: nor this one, so x stays unpublished
		} else {
			fa.expr(arg, s, useRead)
		}
		if fa.pacc != nil {
			fa.pacc.opaque = false
		}
	}
}

// addrOperand returns x when e is &x, looking through conversions
// ((*uint32)(&x.f), unsafe.Pointer(&x.f)) and parentheses.
func addrOperand(info *types.Info, e ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				return x.X
			}
			return nil
		case *ast.CallExpr:
			if tv, ok := info.Types[ast.Unparen(x.Fun)]; ok && tv.IsType() && len(x.Args) == 1 {
				e = x.Args[0]
				continue
			}
			return nil
		default:
			return nil
		}
	}
}

// receiver walks the receiver of a method call. A pointer method called on
// an addressable value field (x.buf.WriteString) writes it when the method
// writes through its receiver, and only reads it otherwise (x.list.Front());
// a method of a sync/atomic type, or of a type whose method only accesses
// its receiver with sync/atomic, is an atomic access.
func (fa *funcAnalysis) receiver(se *ast.SelectorExpr, sel *types.Selection, s *State) {
	fn := sel.Obj().(*types.Func)
	recvT := fa.info.TypeOf(se.X)
	if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && !astq.IsPointer(recvT) {
		if fa.atomicTarget(se.X, s, !strings.HasPrefix(fn.Name(), "Load")) {
			return
		}
	}
	sig := fn.Type().(*types.Signature)
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	if types.IsInterface(recvT) || !ptrRecv {
		// An interface method, or a value receiver: x is read (copied).
		if id, ok := ast.Unparen(se.X).(*ast.Ident); ok && (astq.IsPointer(recvT) || types.IsInterface(recvT)) {
			if fa.a.escapes(fn, directives.Receiver) {
				fa.ident(id, s, useRead) // x.m(): x is handed to the method
			}
			return
		}
		if astq.IsPointer(recvT) {
			fa.expr(se.X, s, useLoad)
			return
		}
		fa.expr(se.X, s, useBase)
		return
	}
	if !astq.IsPointer(recvT) && sel.Indirect() {
		// Promoted through an embedded pointer: the method works on
		// memory x points to, not on x.
		fa.expr(se.X, s, useBase)
		return
	}
	kind := kindWrite
	if fa.kindMatters(se.X, !astq.IsPointer(recvT)) {
		kind = fa.a.paramKindOf(fn, directives.Receiver)
	}
	if (kind == kindAtomicRead || kind == kindAtomicWrite) && !astq.IsPointer(recvT) && fa.atomicTarget(se.X, s, kind == kindAtomicWrite) {
		return
	}
	if !astq.IsPointer(recvT) { // x.f.m(): the address of x.f is taken
		if fa.a.escapes(fn, directives.Receiver) {
			fa.publishRoot(se.X, s) // and handed to a method that may keep it
		}
		if kind == kindWrite {
			fa.expr(se.X, s, useWrite)
		} else {
			fa.expr(se.X, s, useAddr)
		}
		return
	}
	if id, ok := ast.Unparen(se.X).(*ast.Ident); ok && fa.a.escapes(fn, directives.Receiver) {
		if kind == kindWrite {
			fa.ident(id, s, useRead) // x.m(): x is handed to the method
			return
		}
		fa.publishIdent(id, s) // only read through, but kept where others can reach it
	}
	fa.expr(se.X, s, kind.use())
}

// publishIdent ends the freshness of the local id names.
func (fa *funcAnalysis) publishIdent(id *ast.Ident, s *State) {
	if v, ok := fa.info.Uses[id].(*types.Var); ok {
		fa.publish(s, v)
	}
}

// atomicTarget records e as an atomic access when it is a guarded field or
// variable. It reports false when e is something else.
func (fa *funcAnalysis) atomicTarget(e ast.Expr, s *State, write bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, isPkg := fa.info.Uses[id].(*types.PkgName); isPkg {
				v, ok := fa.info.Uses[e.Sel].(*types.Var)
				if !ok {
					return false
				}
				if g := fa.a.dirs.Guard(v); g.Guards() {
					fa.record(&Access{Node: e, Pos: e.Sel.Pos(), Var: v, Guard: g, Write: write, Atomic: true}, s)
				}
				return true
			}
		}
		sel := fa.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return false
		}
		u := useAtomicRead
		if write {
			u = useAtomicWrite
		}
		if astq.IsPointer(fa.info.TypeOf(e.X)) {
			u = derefUse(u)
		} else {
			u = valueUse(u)
		}
		fa.expr(e.X, s, u)
		fa.fieldAccess(e, sel, s, write, true)
		return true
	case *ast.Ident:
		v, ok := fa.info.Uses[e].(*types.Var)
		if ok && !isPackageLevel(v) && fa.a.vars {
			// atomic.AddInt64(&n, 1), n a local: an atomic use of n.
			u := useAtomicRead
			if write {
				u = useAtomicWrite
			}
			fa.expr(e, s, u)
			return true
		}
		if !ok || !isPackageLevel(v) {
			return false
		}
		fa.recordVar(e, v, useAtomicRead, s)
		if g := fa.a.dirs.Guard(v); g.Guards() {
			fa.record(&Access{Node: e, Pos: e.Pos(), Var: v, Guard: g, Write: write, Atomic: true}, s)
		}
		return true
	}
	return false
}

func (fa *funcAnalysis) builtin(name string, call *ast.CallExpr, s *State) {
	if name == "delete" && len(call.Args) == 2 {
		fa.mapEntry(call, call.Args[0], call.Args[1], nil, s)
	}
	for i, arg := range call.Args {
		u := useRead
		if i == 0 && (name == "delete" || name == "clear" || name == "copy") {
			u = useWrite
		}
		if name == "len" || name == "cap" || (name == "copy" && i == 1) || (name == "append" && i > 0 && call.Ellipsis.IsValid()) {
			u = useBase // only read: copy's source, append's spread slice
		}
		fa.expr(arg, s, u)
	}
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
		switch n := n.(type) {
		case *ast.BlockStmt:
			scan(n.List)
		case *ast.CaseClause:
			scan(n.Body)
		case *ast.CommClause:
			scan(n.Body)
		}
		return true
	})
	return pairs
}

// deferInfo is a deferred call: how it changes the lock state, and how to
// record it against the state at return.
type deferInfo struct {
	call    *ast.CallExpr
	atDefer *State
	effect  func(*State)
	replay  func(*State, *Func)
}

// addDefer registers a deferred call (final pass only records).
func (fa *funcAnalysis) addDefer(call *ast.CallExpr, s *State, effect func(*State), replay func(*State, *Func)) {
	s.addDefer(call)
	if fa.final && fa.rec != nil {
		fa.pending = append(fa.pending, &deferInfo{call: call, atDefer: s.clone(), effect: effect, replay: replay})
	}
}

// replayDefers records each deferred call against the state at the returns
// it runs at, after the deferred calls registered later on the same paths
// (which run first). Each return runs only the defers registered on its
// own paths: a defer in one switch case does not run at another case's
// return.
func (fa *funcAnalysis) replayDefers() {
	for i, d := range fa.pending {
		var st *State
		for _, ex := range fa.exitStates {
			if !ex.defers[d.call] {
				continue
			}
			at := ex.clone()
			at.clearDefers()
			for _, later := range fa.pending[i+1:] {
				if ex.defers[later.call] {
					later.effect(at)
				}
			}
			st = join(st, at)
		}
		if st == nil {
			st = d.atDefer.clone() // no return reached: the defer statement's state is the best we know
			st.clearDefers()
		}
		d.replay(st, fa.rec)
	}
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

// refAtCall resolves a contract path at a call site by substituting the
// receiver and arguments.
func (fa *funcAnalysis) refAtCall(r directives.LockRef, call *ast.CallExpr, callee *types.Func) lockpath.Path {
	return fa.canon(fa.rawRefAtCall(r, call, callee))
}

// canon names a lock by its canonical path (directives.Result.CanonLock).
func (fa *funcAnalysis) canon(p lockpath.Path) lockpath.Path {
	return fa.a.dirs.CanonLock(p)
}

func (fa *funcAnalysis) rawRefAtCall(r directives.LockRef, call *ast.CallExpr, callee *types.Func) lockpath.Path {
	switch r.Kind {
	case directives.Global:
		if v := fa.a.dirs.Global(r); v != nil {
			return lockpath.Path{Root: v, Sel: r.Sel}
		}
	case directives.Param:
		var base lockpath.Path
		recv, sel, args := astq.CallOperands(fa.info, call)
		if r.Param == directives.Receiver {
			if recv == nil {
				return lockpath.Path{}
			}
			base = fa.res.Of(recv)
			if base.Valid() {
				base = base.Field(locks.ImplicitFields(sel)...)
			}
			if fa.recvFrom.Valid() && base.HasPrefix(fa.recvFrom) {
				base = lockpath.Path{Root: fa.recvTo.Root, Sel: fa.recvTo.Sel + base.Sel[len(fa.recvFrom.Sel):]}
			}
		} else if r.Param < len(args) && r.Param < callee.Type().(*types.Signature).Params().Len() {
			base = fa.res.Of(args[r.Param])
		}
		if base.Valid() {
			return lockpath.Path{Root: base.Root, Sel: base.Sel + r.Sel}
		}
	}
	return lockpath.Path{}
}

// RefAtCall is refAtCall for rules: it resolves a callee's contract path at
// one of this function's call sites.
func (f *Func) RefAtCall(dirs *directives.Result, r directives.LockRef, call *ast.CallExpr, callee *types.Func) lockpath.Path {
	fa := &funcAnalysis{a: &packageAnalysis{dirs: dirs}, info: f.Resolver.Info, res: f.Resolver}
	return fa.refAtCall(r, call, callee)
}

// closure records a function literal's body with the right entry state. Its
// lock effects (for inline and deferred closures) are applied by the caller.
func (fa *funcAnalysis) closure(lit *ast.FuncLit, s *State, ctx Context) {
	if ctx == Goroutine || ctx == Escaping {
		// Whatever it captures is shared with code that runs later.
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := fa.info.Uses[id].(*types.Var); ok {
					fa.publish(s, v)
				}
			}
			return true
		})
	}
	if !fa.final || (fa.rec == nil && fa.pacc == nil) {
		return
	}
	entry := newState()
	if ctx == Inline || ctx == Deferred {
		entry = s.clone()
		entry.snap, entry.deferred = nil, nil
	}
	sub := fa.closureAnalysis(lit)
	if fa.quick {
		sub.quickWalk(lit.Body, entry)
		return
	}
	if fa.rec == nil {
		// Summarising: what the closure does through the function's
		// pointer parameters is done by the function.
		sub.analyse(entry, nil)
		return
	}
	sub.analyse(entry, &Func{Decl: fa.decl, Lit: lit, Obj: fa.fn, Context: ctx})
}

// litEffect is the net lock effect of a closure on captured locks: the
// changes, and the locks it takes first and leaves free (see freed).
type litEffect struct {
	changes map[lockpath.Path]LockVal
	freed   []lockpath.Path
}

// closureEffects is the net lock effect of a closure on captured locks.
func (a *packageAnalysis) closureEffects(fa *funcAnalysis, lit *ast.FuncLit) *litEffect {
	if a.litEffects == nil {
		a.litEffects = map[*ast.FuncLit]*litEffect{}
	}
	if eff, ok := a.litEffects[lit]; ok {
		if eff == nil {
			a.partial++ // still being computed: recursion
		}
		return eff
	}
	if fa.quick {
		return nil // nothing in it changes a lock
	}
	a.litEffects[lit] = nil // recursion guard
	sub := fa.closureAnalysis(lit)
	sub.pacc = nil // only the lock effect is wanted here
	exits := sub.analyse(newState(), nil)
	keep := func(p lockpath.Path) bool {
		return !(lit.Pos() <= p.Root.Pos() && p.Root.Pos() < lit.End()) // not the closure's own locals
	}
	eff := &litEffect{changes: netChanges(exits, sub.impliedEntry(newState()), keep), freed: sub.freed(exits, keep)}
	a.litEffects[lit] = eff
	return eff
}

func (fa *funcAnalysis) applyChanges(eff *litEffect, s *State, deferred bool, pos token.Pos) {
	if eff == nil {
		return
	}
	for p, v := range eff.changes {
		v.Site = pos
		fa.setOrDefer(s, p, v, deferred)
	}
	for _, p := range eff.freed {
		fa.setFreed(s, p, pos, deferred)
	}
}

// freed lists the locks the body takes before anything on its path touched
// them (so its caller does not hold them) and leaves free at every exit:
// func() { mu.Lock(); defer mu.Unlock() }. Relative to the entry that
// implies, they do not change; relative to what the caller knew, they
// become free.
func (fa *funcAnalysis) freed(exits []*State, keep func(lockpath.Path) bool) []lockpath.Path {
	if len(exits) == 0 {
		return nil
	}
	var out []lockpath.Path
	for p, v := range fa.assumed {
		if v.Mode != NotHeld || fa.entry.Lock(p).Mode != Unknown || !keep(p) {
			continue
		}
		free := true
		for _, ex := range exits {
			if ex.Lock(p).Mode != NotHeld {
				free = false
			}
		}
		if free {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// setFreed applies a callee's freed lock: not held after the call. Like a
// Lock, it shows the caller did not hold it on entry. Called while the
// lock is held, the callee deadlocks (reported at the call); the state
// stays as the caller has it, so that one bug makes one report.
func (fa *funcAnalysis) setFreed(s *State, p lockpath.Path, pos token.Pos, deferred bool) {
	v := LockVal{Mode: NotHeld, Site: pos}
	if deferred {
		s.setDeferred(p, deferredOp(v))
		return
	}
	if s.Lock(p).Mode.Held() {
		return
	}
	fa.firstUse(s, p, LockVal{Mode: Exclusive})
	s.set(p, v)
}

// netChanges returns the locks that every exit leaves in the same definite
// state, different from entry: the function's net effect.
func netChanges(exits []*State, entry *State, keep func(lockpath.Path) bool) map[lockpath.Path]LockVal {
	if len(exits) == 0 {
		return nil
	}
	out := map[lockpath.Path]LockVal{}
	seen := map[lockpath.Path]bool{}
	for _, ex := range exits {
		for p := range ex.locks {
			seen[p] = true
		}
	}
	for p := range seen {
		if !keep(p) {
			continue
		}
		first := exits[0].Lock(p)
		same := first.Mode != Unknown && first.Mode != Maybe
		for _, ex := range exits[1:] {
			if v := ex.Lock(p); v.Mode != first.Mode || v.Read != first.Read {
				same = false
			}
		}
		if same && first.Mode != entry.Lock(p).Mode {
			out[p] = LockVal{Mode: first.Mode, Read: first.Read}
		}
	}
	return out
}

// effects turns a declared function's net changes into a Contract whose
// paths are rooted at its receiver, parameters or package-level variables.
func (fa *funcAnalysis) effects(exits []*State) *directives.Contract {
	params := directives.ParamIndex(fa.sig)
	keep := fa.effectKeep()
	implied := fa.impliedEntry(fa.entry)
	changes := netChanges(exits, implied, keep)
	freed := fa.freed(exits, keep)
	if len(changes)+len(freed) == 0 {
		return nil
	}
	c := &directives.Contract{}
	refOf := func(p lockpath.Path) directives.LockRef {
		if i, ok := params[p.Root]; ok {
			return directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}
		}
		return directives.LockRef{Kind: directives.Global, PkgPath: p.Root.Pkg().Path(), Name: p.Root.Name(), Sel: p.Sel, Text: p.String()}
	}
	// Taken and left free: the caller must not hold it, and it is free
	// after the call (see applyEffects).
	for _, p := range freed {
		c.Excludes = append(c.Excludes, refOf(p))
	}
	for p, v := range changes {
		ref := refOf(p)
		switch {
		case v.Mode == Exclusive:
			c.Acquires = append(c.Acquires, ref)
		case v.Mode == Shared && implied.Lock(p).Mode == Exclusive:
			c.Downgrades = append(c.Downgrades, ref)
		case v.Mode == Shared:
			c.RAcquires = append(c.RAcquires, ref)
		case v.Mode == NotHeld && v.Read:
			c.RReleases = append(c.RReleases, ref)
		case v.Mode == NotHeld:
			c.Releases = append(c.Releases, ref)
		}
	}
	for _, refs := range []*[]directives.LockRef{&c.Acquires, &c.RAcquires, &c.Releases, &c.RReleases, &c.Excludes, &c.Downgrades} {
		sortRefs(*refs)
	}
	return c
}

// effectKeep says which locks a function's effects can name: those
// rooted at a parameter it never reassigns (c = c.parent no longer names
// the caller's argument) or at a package-level variable.
func (fa *funcAnalysis) effectKeep() func(lockpath.Path) bool {
	params := directives.ParamIndex(fa.sig)
	return func(p lockpath.Path) bool {
		_, isParam := params[p.Root]
		v, isVar := p.Root.(*types.Var)
		return (isParam && fa.res.Stable(v)) || (isVar && isPackageLevel(v))
	}
}

// retakes lists the caller's locks the body releases first (so its caller
// holds them) and holds again at every return.
func (fa *funcAnalysis) retakes(exits []*State) []directives.LockRef {
	if len(exits) == 0 {
		return nil
	}
	params := directives.ParamIndex(fa.sig)
	var out []directives.LockRef
	for p, v := range fa.assumed {
		if !v.Mode.Held() {
			continue
		}
		i, isParam := params[p.Root]
		if !isParam || !fa.res.Stable(p.Root.(*types.Var)) {
			continue
		}
		held := true
		for _, ex := range exits {
			if !ex.Lock(p).Mode.Held() {
				held = false
			}
		}
		if held {
			out = append(out, directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()})
		}
	}
	sortRefs(out)
	return out
}

// applyRetakes starts a new critical section, at the call, for each lock
// the callee releases and takes again: what was read before the call may
// be stale after it. sync.Cond.Wait does this to the lock of the object
// that owns the Cond (c.cond.Wait() with c.mu held), or to its L.
func (fa *funcAnalysis) applyRetakes(call *ast.CallExpr, callee *types.Func, s *State) {
	retake := func(p lockpath.Path) {
		switch v := s.Lock(p); {
		case v.Mode.Held():
			s.set(p, LockVal{Mode: v.Mode, Site: call.Lparen})
		case v.Mode == Unknown:
			// Releasing a lock not held is fatal, so the caller holds it
			// (as firstUse assumes for a plain Unlock).
			fa.firstUse(s, p, LockVal{Mode: NotHeld})
			s.set(p, LockVal{Mode: Exclusive, Site: call.Lparen})
		}
	}
	if isCondWait(callee) {
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		cond := fa.res.Of(se.X)
		if !cond.Valid() {
			return
		}
		for _, p := range s.Held() {
			if p.Root == cond.Root && (p.Sel == cond.Sel+".L" || p.Owner() == cond.Owner()) {
				s.set(p, LockVal{Mode: s.Lock(p).Mode, Site: call.Lparen})
			}
		}
		return
	}
	for _, r := range fa.a.retakesOf(callee) {
		if p := fa.refAtCall(r, call, callee); p.Valid() {
			retake(p)
		}
	}
}

// isCondWait reports whether fn is (*sync.Cond).Wait.
func isCondWait(fn *types.Func) bool {
	return fn != nil && fn.Name() == "Wait" && locks.MethodOf(fn, "sync", "Cond")
}

func sortRefs(refs []directives.LockRef) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].Text < refs[j-1].Text; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}

func (fa *funcAnalysis) goStmt(g *ast.GoStmt, s *State) {
	call := g.Call
	lit, _ := ast.Unparen(call.Fun).(*ast.FuncLit)
	if lit == nil {
		lit = fa.localLit(call.Fun)
	}
	if lit != nil {
		for _, arg := range call.Args {
			fa.expr(arg, s, useRead)
		}
		fa.closure(lit, s, Goroutine)
		return
	}
	callee := typeutil.StaticCallee(fa.info, call)
	fa.operands(call, callee, s)
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if id, ok := ast.Unparen(se.X).(*ast.Ident); ok {
			fa.ident(id, s, useRead) // the goroutine shares its receiver
		}
	}
	if callee == nil {
		return
	}
	c := fa.a.dirs.Contract(callee)
	handed := fa.handOff(call, callee, []*directives.Contract{c, fa.a.effectsOf(callee)}, s, g.Go)
	if c == nil || !fa.final || fa.rec == nil {
		return
	}
	var needs []directives.LockRef
	for _, refs := range [][]directives.LockRef{c.Holds, c.RHolds, c.Releases, c.RReleases} {
		for _, r := range refs {
			if !handed[fa.refAtCall(r, call, callee)] {
				needs = append(needs, r)
			}
		}
	}
	if len(needs) > 0 {
		fa.rec.Gos = append(fa.rec.Gos, &Go{Node: g, Callee: callee, Contract: c, Needs: needs})
	}
}

// handOff applies a lock hand-off to a goroutine: go f() where f releases
// a lock (by its contract, or by its inferred effect) that the starter
// holds. The goroutine takes the lock over and releases it (sync's locks
// may be unlocked by another goroutine), so from the go statement on the
// starter no longer holds it. It returns the locks handed off.
func (fa *funcAnalysis) handOff(call *ast.CallExpr, callee *types.Func, cs []*directives.Contract, s *State, at token.Pos) map[lockpath.Path]bool {
	var handed map[lockpath.Path]bool
	for _, c := range cs {
		if c == nil {
			continue
		}
		for _, k := range []struct {
			refs []directives.LockRef
			read bool
		}{{c.Releases, false}, {c.RReleases, true}} {
			for _, r := range k.refs {
				p := fa.refAtCall(r, call, callee)
				if !p.Valid() || handed[p] || !s.Lock(p).Mode.Held() {
					continue
				}
				if handed == nil {
					handed = map[lockpath.Path]bool{}
				}
				handed[p] = true
				s.set(p, LockVal{Mode: NotHeld, Read: k.read, Site: at})
			}
		}
	}
	return handed
}

func (fa *funcAnalysis) deferStmt(d *ast.DeferStmt, s *State) {
	fa.call(d.Call, s, true)
}

// isAsynchronousCallback reports whether a function runs its function
// argument later in a goroutine of its own, like a go statement: the
// closure starts with no locks held, and that is known, not assumed.
func isAsynchronousCallback(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	switch directives.FuncKey(fn) {
	case "time.AfterFunc", "context.AfterFunc":
		return true
	}
	return false
}

// isSynchronousCallback reports whether a function runs its function
// arguments before it returns, so closures passed to it inherit the caller's
// locks: the sort, slices, maps, strings and bytes helpers, sync.Once.Do,
// sync.Map.Range and the file tree walkers.
func isSynchronousCallback(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sort", "slices", "maps", "strings", "bytes", "unicode", "container/heap", "container/list", "container/ring":
		return true
	}
	switch directives.FuncKey(fn) {
	case "sync.Once.Do", "sync.Map.Range", "path/filepath.Walk", "path/filepath.WalkDir", "io/fs.WalkDir":
		return true
	}
	return false
}
