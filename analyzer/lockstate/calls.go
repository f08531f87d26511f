package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
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
	if lc, ok := locks.AsCall(fa.info, call); ok {
		fa.expr(lc.Receiver, s, useBase)
		fa.lockOp(call, lc, s, deferred)
		// A type's own Lock method (type C struct{ mu sync.Mutex } with
		// func (c *C) Lock() { c.mu.Lock() }) locks both c and what its
		// body locks, so guards may name either.
		if callee := typeutil.StaticCallee(fa.info, call); callee != nil && callee.Pkg() != nil && callee.Pkg().Path() != "sync" {
			fa.applyContract(call, callee, fa.a.dirs.Contract(callee), s, deferred)
			fa.applyContract(call, callee, fa.a.effectsOf(callee), s, deferred)
		}
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
	if fa.final && fa.rec != nil && !deferred {
		// Every static call is recorded with the locks held at it: rules
		// also care about callees that lock internally or block.
		fa.rec.Calls = append(fa.rec.Calls, &Call{Node: call, Callee: callee, Contract: contract, Effects: effects, State: s.clone()})
	}
	if contract.Empty() && effects.Empty() {
		return
	}
	fa.applyContract(call, callee, contract, s, deferred)
	fa.applyContract(call, callee, effects, s, deferred)
	if deferred {
		fa.addDefer(call, s, func(st *State) {
			fa.applyContract(call, callee, contract, st, false)
			fa.applyContract(call, callee, effects, st, false)
		}, func(st *State, rec *Func) {
			rec.Calls = append(rec.Calls, &Call{Node: call, Callee: callee, Contract: contract, Effects: effects, State: st, Deferred: true})
		})
	}
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
					s.set(lockpath.Path{Root: base.Root, Sel: base.Sel + r.Sel}, v)
				}
			}
		}
		apply(c.Acquires, LockVal{Mode: Exclusive})
		apply(c.RAcquires, LockVal{Mode: Shared})
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
}

func (fa *funcAnalysis) setOrDefer(s *State, p lockpath.Path, v LockVal, deferred bool) {
	if deferred {
		s.deferred[p] = deferredOp(v)
		return
	}
	s.set(p, v)
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
	for i, arg := range call.Args {
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
		}
		if fa.linkArg(call, callee, i, arg, s) {
			continue // stored only in the new object the call returns, which stays unpublished
		}
		kind := kindWrite
		if callee != nil && i < callee.Type().(*types.Signature).Params().Len() && isPointer(fa.info.TypeOf(arg)) && fa.kindMatters(arg, false) {
			kind = fa.a.paramKindOf(callee, i)
		}
		if kind == kindAtomicRead || kind == kindAtomicWrite {
			if x := addrOperand(fa.info, arg); x != nil && fa.atomicTarget(x, s, kind == kindAtomicWrite) {
				continue
			}
		}
		if kind != kindWrite {
			if id, ok := ast.Unparen(arg).(*ast.Ident); ok && fa.a.escapes(callee, i) {
				fa.publishIdent(id, s) // only read through, but kept where others can reach it
			}
			fa.expr(arg, s, kind.use()) // the callee only reads through it
			continue
		}
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok && !fa.a.escapes(callee, i) {
			fa.expr(id, s, useDeref) // the callee does not publish it, but may write through it
			continue
		}
		fa.expr(arg, s, useRead)
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
	if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && !isPointer(recvT) {
		if fa.atomicTarget(se.X, s, !strings.HasPrefix(fn.Name(), "Load")) {
			return
		}
	}
	sig := fn.Type().(*types.Signature)
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	if types.IsInterface(recvT) || !ptrRecv {
		// An interface method, or a value receiver: x is read (copied).
		if id, ok := ast.Unparen(se.X).(*ast.Ident); ok && (isPointer(recvT) || types.IsInterface(recvT)) {
			if fa.a.escapes(fn, directives.Receiver) {
				fa.ident(id, s, useRead) // x.m(): x is handed to the method
			}
			return
		}
		if isPointer(recvT) {
			fa.expr(se.X, s, useLoad)
			return
		}
		fa.expr(se.X, s, useBase)
		return
	}
	if !isPointer(recvT) && sel.Indirect() {
		// Promoted through an embedded pointer: the method works on
		// memory x points to, not on x.
		fa.expr(se.X, s, useBase)
		return
	}
	kind := kindWrite
	if fa.kindMatters(se.X, !isPointer(recvT)) {
		kind = fa.a.paramKindOf(fn, directives.Receiver)
	}
	if (kind == kindAtomicRead || kind == kindAtomicWrite) && !isPointer(recvT) && fa.atomicTarget(se.X, s, kind == kindAtomicWrite) {
		return
	}
	if !isPointer(recvT) { // x.f.m(): the address of x.f is taken
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
		if isPointer(fa.info.TypeOf(e.X)) {
			u = derefUse(u)
		} else {
			u = valueUse(u)
		}
		fa.expr(e.X, s, u)
		fa.fieldAccess(e, sel, s, write, true)
		return true
	case *ast.Ident:
		v, ok := fa.info.Uses[e].(*types.Var)
		if !ok || !isPackageLevel(v) {
			return false
		}
		if g := fa.a.dirs.Guard(v); g.Guards() {
			fa.record(&Access{Node: e, Pos: e.Pos(), Var: v, Guard: g, Write: write, Atomic: true}, s)
		}
		return true
	}
	return false
}

func (fa *funcAnalysis) builtin(name string, call *ast.CallExpr, s *State) {
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

// lockOp applies x.Lock() and friends.
func (fa *funcAnalysis) lockOp(call *ast.CallExpr, lc locks.Call, s *State, deferred bool) {
	p := fa.res.LockOf(lc)
	if !p.Valid() {
		return
	}
	if fa.final && fa.rec != nil && !deferred {
		fa.rec.LockOps = append(fa.rec.LockOps, &LockOp{Node: call, Op: lc.Op, Lock: p, Before: s.Lock(p), State: s.clone()})
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
			paths = append(paths, base)
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
		}, func(st *State, rec *Func) {
			rec.LockOps = append(rec.LockOps, &LockOp{Node: call, Op: lc.Op, Lock: p, Before: st.Lock(p), State: st})
		})
	}
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
	s.defers[call] = true
	if fa.final && fa.rec != nil {
		fa.pending = append(fa.pending, &deferInfo{call: call, atDefer: s.clone(), effect: effect, replay: replay})
	}
}

// replayDefers records each deferred call against the state at the returns
// it runs at, after the deferred calls registered later (which run first).
func (fa *funcAnalysis) replayDefers() {
	for i, d := range fa.pending {
		st := fa.deferExit[d.call]
		if st == nil {
			st = d.atDefer // no return reached: the defer statement's state is the best we know
		}
		st = st.clone()
		st.deferred, st.defers = map[lockpath.Path]deferred{}, map[*ast.CallExpr]bool{}
		for _, later := range fa.pending[i+1:] {
			if fa.deferExit[later.call] != nil {
				later.effect(st)
			}
		}
		d.replay(st, fa.rec)
	}
}

// outcome is what a condition does to a lock on one of its branches.
type outcome uint8

const (
	unchanged   outcome = iota // as before the condition
	acquired                   // the TryLock succeeded
	notAcquired                // the TryLock failed
	mixed                      // depends on which operand decided
)

func merge(a, b outcome) outcome {
	if a == b {
		return a
	}
	return mixed
}

// condShape finds a TryLock deciding a condition: mu.TryLock(), its
// negation, a local bool assigned from it (if ok := mu.TryLock(); ok), and
// those inside && and ||. It only inspects syntax.
func (fa *funcAnalysis) condShape(e ast.Expr) (call *ast.CallExpr, t, f outcome, ok bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			call, t, f, ok = fa.condShape(e.X)
			return call, f, t, ok
		}
	case *ast.CallExpr:
		if lc, isLock := locks.AsCall(fa.info, e); isLock && (lc.Op == locks.TryLock || lc.Op == locks.TryRLock) {
			return e, acquired, unchanged, true
		}
	case *ast.Ident:
		if def := fa.res.Def(e); def != nil {
			if c, isCall := ast.Unparen(def).(*ast.CallExpr); isCall {
				if lc, isLock := locks.AsCall(fa.info, c); isLock && (lc.Op == locks.TryLock || lc.Op == locks.TryRLock) {
					return c, acquired, notAcquired, true
				}
			}
		}
	case *ast.BinaryExpr:
		if e.Op != token.LAND && e.Op != token.LOR {
			return nil, 0, 0, false
		}
		ca, ta, fa2, oka := fa.condShape(e.X)
		cb, tb, fb, okb := fa.condShape(e.Y)
		switch {
		case oka == okb:
			return nil, 0, 0, false
		case e.Op == token.LAND && okb: // a && TryLock
			return cb, tb, merge(unchanged, fb), true
		case e.Op == token.LAND: // TryLock && b
			return ca, ta, merge(fa2, ta), true
		case okb: // a || TryLock
			return cb, merge(unchanged, tb), fb, true
		default: // TryLock || b
			return ca, merge(ta, fa2), fa2, true
		}
	}
	return nil, 0, 0, false
}

// tryLockCond splits the state on a condition decided by a TryLock.
func (fa *funcAnalysis) tryLockCond(e ast.Expr, s *State) (t, f *State, ok bool) {
	call, tOut, fOut, ok := fa.condShape(e)
	if !ok {
		return nil, nil, false
	}
	lc, _ := locks.AsCall(fa.info, call)
	p := fa.res.LockOf(lc)
	if !p.Valid() {
		return nil, nil, false
	}
	pre := s.Lock(p)
	fa.expr(e, s, useBase) // operands and accesses; the TryLock itself sets Maybe
	mode := Exclusive
	if lc.Op == locks.TryRLock {
		mode = Shared
	}
	set := func(st *State, o outcome) {
		switch o {
		case unchanged:
			st.set(p, pre)
		case acquired:
			st.set(p, LockVal{Mode: mode, Site: call.Pos()})
		case notAcquired:
			st.set(p, LockVal{Mode: Unknown, Site: call.Pos()})
		case mixed:
			st.set(p, LockVal{Mode: Maybe, Site: call.Pos()})
		}
	}
	t = s.clone()
	set(t, tOut)
	set(s, fOut)
	return t, s, true
}

// refAtCall resolves a contract path at a call site by substituting the
// receiver and arguments.
func (fa *funcAnalysis) refAtCall(r directives.LockRef, call *ast.CallExpr, callee *types.Func) lockpath.Path {
	switch r.Kind {
	case directives.Global:
		if v := fa.a.dirs.Global(r); v != nil {
			return lockpath.Path{Root: v, Sel: r.Sel}
		}
	case directives.Param:
		var base lockpath.Path
		if r.Param == directives.Receiver {
			se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return lockpath.Path{}
			}
			base = fa.res.Of(se.X)
			if sel := fa.info.Selections[se]; sel != nil && base.Valid() {
				base = base.Field(locks.ImplicitFields(sel)...)
			}
		} else if r.Param < len(call.Args) && r.Param < callee.Type().(*types.Signature).Params().Len() {
			base = fa.res.Of(call.Args[r.Param])
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
		entry.deferred = map[lockpath.Path]deferred{}
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

// closureEffects is the net lock effect of a closure on captured locks.
func (a *packageAnalysis) closureEffects(fa *funcAnalysis, lit *ast.FuncLit) map[lockpath.Path]LockVal {
	if a.litEffects == nil {
		a.litEffects = map[*ast.FuncLit]map[lockpath.Path]LockVal{}
	}
	if eff, ok := a.litEffects[lit]; ok {
		return eff
	}
	if fa.quick {
		return nil // nothing in it changes a lock
	}
	a.litEffects[lit] = nil // recursion guard
	sub := fa.closureAnalysis(lit)
	sub.pacc = nil // only the lock effect is wanted here
	exits := sub.analyse(newState(), nil)
	eff := netChanges(exits, newState(), func(p lockpath.Path) bool {
		return !(lit.Pos() <= p.Root.Pos() && p.Root.Pos() < lit.End()) // not the closure's own locals
	})
	a.litEffects[lit] = eff
	return eff
}

func (fa *funcAnalysis) applyChanges(eff map[lockpath.Path]LockVal, s *State, deferred bool, pos token.Pos) {
	for p, v := range eff {
		v.Site = pos
		fa.setOrDefer(s, p, v, deferred)
	}
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
	params := ParamIndex(fa.sig)
	changes := netChanges(exits, fa.entry, func(p lockpath.Path) bool {
		_, isParam := params[p.Root]
		v, isVar := p.Root.(*types.Var)
		// A reassigned parameter (c = c.parent) no longer names the
		// caller's argument.
		return (isParam && fa.res.Stable(v)) || (isVar && isPackageLevel(v))
	})
	if len(changes) == 0 {
		return nil
	}
	c := &directives.Contract{}
	for p, v := range changes {
		var ref directives.LockRef
		if i, ok := params[p.Root]; ok {
			ref = directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}
		} else {
			ref = directives.LockRef{Kind: directives.Global, PkgPath: p.Root.Pkg().Path(), Name: p.Root.Name(), Sel: p.Sel, Text: p.String()}
		}
		switch {
		case v.Mode == Exclusive:
			c.Acquires = append(c.Acquires, ref)
		case v.Mode == Shared:
			c.RAcquires = append(c.RAcquires, ref)
		case v.Mode == NotHeld && v.Read:
			c.RReleases = append(c.RReleases, ref)
		case v.Mode == NotHeld:
			c.Releases = append(c.Releases, ref)
		}
	}
	for _, refs := range []*[]directives.LockRef{&c.Acquires, &c.RAcquires, &c.Releases, &c.RReleases} {
		sortRefs(*refs)
	}
	return c
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
	if c := fa.a.dirs.Contract(callee); c != nil && len(c.Holds)+len(c.RHolds)+len(c.Releases)+len(c.RReleases) > 0 && fa.final && fa.rec != nil {
		fa.rec.Gos = append(fa.rec.Gos, &Go{Node: g, Callee: callee, Contract: c})
	}
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
