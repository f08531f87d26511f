package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
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
		fa.lockCall(call, lc, s, deferred)
		return
	}
	lit, _ := fun.(*ast.FuncLit)
	if lit == nil {
		lit = fa.localLit(fun)
	}
	if lit != nil {
		fa.litCall(call, lit, s, deferred)
		return
	}
	fa.staticCall(call, s, deferred)
}

// lockCall walks a call of a lock operation: Lock, Unlock and their kin
// on a lock, or on a type's own Lock method.
func (fa *funcAnalysis) lockCall(call *ast.CallExpr, lc locks.Call, s *State, deferred bool) {
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
}

// litCall walks a call of a function literal, called where it is written
// or through a local that holds it: inline, or at return when deferred.
func (fa *funcAnalysis) litCall(call *ast.CallExpr, lit *ast.FuncLit, s *State, deferred bool) {
	for i, arg := range call.Args {
		if cb, ok := ast.Unparen(arg).(*ast.FuncLit); ok && !deferred && litSyncParam(fa.info, lit, i) {
			fa.closure(cb, s, Inline) // a callback the literal runs in place
			continue
		}
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
}

// staticCall walks a call of a function or method known by name: its
// operands, its contract and effects, and the record rules read.
func (fa *funcAnalysis) staticCall(call *ast.CallExpr, s *State, deferred bool) {
	callee := typeutil.StaticCallee(fa.info, call)
	fa.operands(call, callee, s)
	if callee == nil {
		fa.runFuncVals(call, nil, s, deferred) // unlock := mu.Unlock; unlock()
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
		fa.rec.Calls = append(fa.rec.Calls, &Call{Node: call, Callee: callee, Contract: contract, Effects: effects, State: s.snapshot(), Forced: forced, InPlace: fa.inPlaceFuncs(call, callee)})
	}
	if !deferred {
		fa.applyRetakes(call, callee, s)
	}
	fa.runFuncVals(call, callee, s, deferred) // cu.Clean() of cu := cleanup.Make(mu.Unlock)
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

func deferredOp(v LockVal) deferred { return deferredOf(v, false) }

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
		fa.operand(call, callee, i, arg, s, atomicFunc)
	}
}

// operand walks the argument for the callee's parameter i (or its
// receiver, directives.Receiver): a callback run now, later or on another
// goroutine; an atomic's target; or a value the callee reads or writes
// through, or keeps.
func (fa *funcAnalysis) operand(call *ast.CallExpr, callee *types.Func, i int, arg ast.Expr, s *State, atomicFunc bool) {
	if outer, lit := astq.ReturnedLit(arg); lit != nil {
		// g.Go(func(b *Block) func() error { return func() error {...} }(b)):
		// the returned literal is the callback.
		for _, a := range outer.Args {
			fa.expr(a, s, useRead)
		}
		arg = lit
	}
	if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
		if isSynchronousCallback(callee) || fa.a.syncParam(callee, i) {
			fa.closure(lit, s, Inline)
		} else if isAsynchronousCallback(callee) || fa.a.asyncParam(callee, i) {
			if fa.final && fa.rec != nil && isAsynchronousCallback(callee) {
				fa.rec.GoStarts = append(fa.rec.GoStarts, &GoStart{Node: call, Lit: lit, State: s.snapshot()})
			}
			fa.closure(lit, s, Goroutine)
		} else {
			fa.closure(lit, s, Escaping)
		}
		return
	}
	if atomicFunc && i == 0 {
		if x := addrOperand(fa.info, arg); x != nil && fa.atomicTarget(x, s, !strings.HasPrefix(callee.Name(), "Load")) {
			return
		}
		if fa.pacc != nil && fa.pointsInto(arg) != nil { // atomic.StoreUint32(p, v), p a pointer parameter
			u := useAtomicRead
			if !strings.HasPrefix(callee.Name(), "Load") {
				u = useAtomicWrite
			}
			fa.expr(arg, s, u)
			return
		}
	}
	if fa.linkArg(call, callee, i, arg, s) {
		return // stored only in the new object the call returns, which stays unpublished
	}
	kind := kindWrite
	if callee != nil && (i == directives.Receiver || i < callee.Type().(*types.Signature).Params().Len()) && astq.IsPointer(fa.info.TypeOf(arg)) && (fa.kindMatters(arg, false) || fa.isField(addrOperand(fa.info, arg))) {
		// &x.f handed to a helper that only uses it atomically is an atomic
		// access of f, wherever the call is.
		kind = fa.a.paramKindOf(callee, i)
	}
	if kind == kindAtomicRead || kind == kindAtomicWrite {
		if x := addrOperand(fa.info, arg); x != nil && fa.atomicTarget(x, s, kind == kindAtomicWrite) {
			return
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
		return
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
	if fa.kindMatters(se.X, !astq.IsPointer(recvT)) || !astq.IsPointer(recvT) && fa.isField(se.X) {
		// x.f.m() on a field value: whether m is atomic decides how f is
		// accessed (a wrapper type such as go.uber.org/atomic's Bool),
		// wherever the call is.
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

// isField reports whether e selects a field.
func (fa *funcAnalysis) isField(e ast.Expr) bool {
	se, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := fa.info.Selections[se]
	return sel != nil && sel.Kind() == types.FieldVal
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
