package lockstate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Conditional acquisition: a function that takes a lock only when it
// succeeds, as TryLock does. Success is what its result says: its one bool
// result is true, or its last result, an error, is nil. Such a function is
// declared to acquire the lock (//guard:acquires, +checklocksacquire) and
// its body does not hold the lock at every return (gVisor's
// vfs.PrepareDeleteDentry, whose error returns take nothing), or, without
// a directive, its body holds the lock at exactly the returns that report
// success (inferred, exported with its effects). After a call the lock is
// held on some paths only; a condition on the result (if ok, if err !=
// nil) decides it on each branch.

// Outcome is what a return statement tells its caller through the result
// that reports success.
type Outcome uint8

const (
	// OutcomeUnknown: the result is not a constant the return shows (a
	// variable, a call that may return nil), or the function has no such
	// result.
	OutcomeUnknown Outcome = iota
	// Succeeds: true, or a nil error.
	Succeeds
	// Fails: false, or an error that is not nil (a sentinel variable, a
	// composite literal, errors.New, fmt.Errorf).
	Fails
)

// ReturnOutcome classifies a return of a function with signature sig by
// the result that reports success: its one bool result, or its last
// result when that is an error.
func ReturnOutcome(info *types.Info, sig *types.Signature, ret *ast.ReturnStmt) Outcome {
	res := sig.Results()
	if ret == nil || res.Len() == 0 || len(ret.Results) != res.Len() {
		return OutcomeUnknown
	}
	switch {
	case isBoolResults(res):
		if tv := info.Types[ret.Results[0]]; tv.Value != nil && tv.Value.Kind() == constant.Bool {
			if constant.BoolVal(tv.Value) {
				return Succeeds
			}
			return Fails
		}
	case isErrorType(res.At(res.Len() - 1).Type()):
		return errorOutcome(info, ret.Results[len(ret.Results)-1])
	}
	return OutcomeUnknown
}

// errorOutcome classifies a returned error expression.
func errorOutcome(info *types.Info, e ast.Expr) Outcome {
	e = ast.Unparen(e)
	if info.Types[e].IsNil() {
		return Succeeds
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && isPackageLevel(v) {
			return Fails // a sentinel: var ErrBusy = errors.New("busy")
		}
	case *ast.SelectorExpr:
		if v, ok := info.Uses[e.Sel].(*types.Var); ok && isPackageLevel(v) {
			return Fails // linuxerr.EBUSY
		}
	case *ast.CompositeLit:
		return Fails
	case *ast.UnaryExpr:
		if _, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok && e.Op == token.AND {
			return Fails
		}
	case *ast.CallExpr:
		if fn := typeutil.StaticCallee(info, e); fn != nil {
			switch directives.FuncKey(fn) {
			case "errors.New", "fmt.Errorf":
				return Fails
			}
		}
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && !types.IsInterface(tv.Type) {
			return Fails // a conversion to a concrete error type: failure{}
		}
	}
	return OutcomeUnknown
}

func isBoolResults(res *types.Tuple) bool {
	if res.Len() != 1 {
		return false
	}
	b, ok := res.At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// isErrorType reports whether t can carry an error: the builtin error or a
// package's own error interface (gVisor's tcpip.Error).
func isErrorType(t types.Type) bool { return types.IsInterface(t) }

// boolResult reports whether fn returns one bool.
func boolResult(fn *types.Func) bool {
	return isBoolResults(fn.Type().(*types.Signature).Results())
}

// errorResult reports whether fn's last result is an error.
func errorResult(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	return res.Len() > 0 && isErrorType(res.At(res.Len()-1).Type())
}

// condLock is a lock a function acquires only when it succeeds.
type condLock struct {
	ref  directives.LockRef
	mode Mode
}

// condLocks returns the locks fn acquires only when it succeeds, declared
// or inferred.
func (a *packageAnalysis) condLocks(fn *types.Func) []condLock {
	var out []condLock
	add := func(refs []directives.LockRef, mode Mode) {
		for _, r := range refs {
			out = append(out, condLock{r, mode})
		}
	}
	if a.declaredConditional(fn) {
		c := a.dirs.Contract(fn)
		add(c.Acquires, Exclusive)
		add(c.RAcquires, Shared)
	}
	if acq, racq := a.inferredConditional(fn); len(acq)+len(racq) > 0 {
		add(acq, Exclusive)
		add(racq, Shared)
	}
	return out
}

// condAcquirer reports whether fn acquires some lock only when it
// succeeds.
func (a *packageAnalysis) condAcquirer(fn *types.Func) bool {
	return fn != nil && len(a.condLocks(fn)) > 0
}

// inferredConditional returns the locks an unannotated function acquires
// only when it succeeds (see condEffects), from its summary or its
// package's EffectsTable.
func (a *packageAnalysis) inferredConditional(fn *types.Func) (acq, racq []directives.LockRef) {
	type refs struct{ acq, racq []directives.LockRef }
	r := summaryPart(a, fn.Origin(),
		func(s *summary) refs { return refs{s.condAcquires, s.condRAcquires} },
		func(e *Effects) refs { return refs{e.CondAcquires, e.CondRAcquires} })
	return r.acq, r.racq
}

// declaredConditional reports whether fn is declared to acquire a lock,
// reports success through its result (one bool, or an error last), and
// does not hold the lock at every return of its body (when its body is
// known): the lock is held only when it returns true, as with TryLock
// (gVisor's tcp.Endpoint.TryLock, +checklocksacquire:e.mu), or only when
// the error is nil (gVisor's vfs.PrepareDeleteDentry, +checklocksacquire:d.mu,
// and createConnectingEndpoint, +checklocksacquire:n.mu on
// (n *Endpoint, _ tcpip.Error)).
func (a *packageAnalysis) declaredConditional(fn *types.Func) bool {
	fn = fn.Origin()
	c := a.dirs.Contract(fn)
	if c == nil || len(c.Acquires)+len(c.RAcquires) == 0 {
		return false
	}
	if !boolResult(fn) && !errorResult(fn) {
		return false
	}
	if fn.Pkg() != a.pass.Pkg {
		if e := a.importedEffects(fn); e != nil {
			return !e.Unconditional
		}
		return true
	}
	if v, ok := a.tryAcq[fn]; ok {
		if a.tryBusy[fn] {
			a.partial++
		}
		return v
	}
	if a.tryAcq == nil {
		a.tryAcq, a.tryBusy = map[*types.Func]bool{}, map[*types.Func]bool{}
	}
	a.tryAcq[fn] = true // recursion: assume the declared shape
	a.tryBusy[fn] = true
	defer delete(a.tryBusy, fn)
	fd := a.decls[fn]
	if fd == nil {
		return true
	}
	fa := a.newFuncAnalysis(fd, fn)
	exits := fa.analyse(fa.entryState(), nil)
	held := len(exits) > 0
	check := func(refs []directives.LockRef, mode Mode) {
		for _, r := range refs {
			p := fa.refInBody(r)
			for _, ex := range exits {
				if !p.Valid() || ex.Lock(p).Mode != mode {
					held = false
				}
			}
		}
	}
	check(c.Acquires, Exclusive)
	check(c.RAcquires, Shared)
	a.tryAcq[fn] = !held
	return !held
}

// condEffects infers, for a function without a contract that reports
// success through its result, the locks it acquires only when it
// succeeds: every return that reports success holds the lock (in one
// mode), every other return leaves it as the function found it, not held,
// and at least one return of each kind shows it. A return whose outcome
// the source does not show (return err) may not hold it.
func (fa *funcAnalysis) condEffects(keep func(lockpath.Path) bool) (acq, racq []directives.LockRef) {
	if len(fa.exits) == 0 || len(fa.exits) != len(fa.exitRets) || (!boolResult(fa.fn) && !errorResult(fa.fn)) {
		return nil, nil
	}
	implied := fa.impliedEntry(fa.entry)
	seen := map[lockpath.Path]bool{}
	for _, ex := range fa.exits {
		for p, v := range lockEntries(ex.locks) {
			if v.Mode.Held() {
				seen[p] = true
			}
		}
	}
	params := directives.ParamIndex(fa.sig)
	for p := range seen {
		if !keep(p) || implied.Lock(p).Mode.Held() {
			continue
		}
		mode, succ, fail, ok := Mode(Unknown), false, false, true
		for i, ex := range fa.exits {
			v := ex.Lock(p)
			switch ReturnOutcome(fa.info, fa.sig, fa.exitRets[i]) {
			case Succeeds:
				if !v.Mode.Held() || v.Mode == Either || (mode != Unknown && v.Mode != mode) {
					ok = false
				}
				mode, succ = v.Mode, true
			default:
				if v.Mode != NotHeld && v.Mode != Unknown {
					ok = false
				}
				fail = true
			}
		}
		if !ok || !succ || !fail {
			continue
		}
		ref := directives.LockRef{Kind: directives.Global, Sel: p.Sel, Text: p.String()}
		if i, isParam := params[p.Root]; isParam {
			ref = directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}
		} else {
			ref.PkgPath, ref.Name = p.Root.Pkg().Path(), p.Root.Name()
		}
		if mode == Exclusive {
			acq = append(acq, ref)
		} else {
			racq = append(racq, ref)
		}
	}
	sortRefs(acq)
	sortRefs(racq)
	return acq, racq
}

// tryTarget is a lock a call takes when it succeeds.
type tryTarget struct {
	lock lockpath.Path
	mode Mode
}

// isTry reports whether call takes a lock only when it returns true:
// TryLock and TryRLock, or a function that acquires a lock only when it
// returns true.
func (fa *funcAnalysis) isTry(call *ast.CallExpr) bool {
	if lc, isLock := locks.AsCall(fa.info, call); isLock {
		return lc.Op == locks.TryLock || lc.Op == locks.TryRLock
	}
	callee := typeutil.StaticCallee(fa.info, call)
	return callee != nil && boolResult(callee) && fa.a.condAcquirer(callee)
}

// condTargets resolves, at this call, the locks it takes only when it
// succeeds: a TryLock's, or a conditional acquirer's, with its receiver
// and arguments substituted and its results as assigned to lhs (nil when
// the call is not assigned).
func (fa *funcAnalysis) condTargets(call *ast.CallExpr, lhs []ast.Expr) []tryTarget {
	if lc, isLock := locks.AsCall(fa.info, call); isLock {
		if lc.Op != locks.TryLock && lc.Op != locks.TryRLock {
			return nil
		}
		if p := fa.canon(fa.res.LockOf(lc)); p.Valid() {
			mode := Exclusive
			if lc.Op == locks.TryRLock {
				mode = Shared
			}
			return []tryTarget{{p, mode}}
		}
		return nil
	}
	callee := typeutil.StaticCallee(fa.info, call)
	if callee == nil {
		return nil
	}
	nparams := callee.Type().(*types.Signature).Params().Len()
	var out []tryTarget
	for _, cl := range fa.a.condLocks(callee) {
		r := cl.ref
		if r.Kind == directives.Param && r.Param >= nparams { // rooted at a result
			if r.Param-nparams >= len(lhs) {
				continue
			}
			if base := fa.res.Of(lhs[r.Param-nparams]); base.Valid() {
				out = append(out, tryTarget{fa.canon(lockpath.Path{Root: base.Root, Sel: base.Sel + r.Sel}), cl.mode})
			}
			continue
		}
		if p := fa.refAtCall(r, call, callee); p.Valid() {
			out = append(out, tryTarget{p, cl.mode})
		}
	}
	return out
}

// condResult is what a local holds after v := f(): the result of a call
// that takes targets only when it succeeds. One per call, so that states
// holding it compare equal.
type condResult struct {
	call    *ast.CallExpr
	targets []tryTarget
	isBool  bool // success is true; else a nil error
}

// noteResults records in s which locals now hold the success result of a
// call that takes locks only when it succeeds (rhs assigned to lhs), and
// forgets it for the others: an assignment makes a local hold something
// else.
func (fa *funcAnalysis) noteResults(rhs ast.Expr, lhs []ast.Expr, s *State) {
	for _, l := range lhs {
		if v := fa.localVar(l); v != nil {
			s.setCond(v, nil)
		}
	}
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		return
	}
	res := fa.info.TypeOf(call)
	n := 1
	if t, isTuple := res.(*types.Tuple); isTuple {
		n = t.Len()
	}
	if n != len(lhs) || n == 0 {
		return
	}
	c := fa.condResults[call]
	if c == nil {
		targets := fa.condTargets(call, lhs)
		if len(targets) == 0 {
			return
		}
		// The call's own result types: a blank identifier on the left
		// (_ = b.Open()) has none.
		result := func(i int) types.Type {
			if t, isTuple := res.(*types.Tuple); isTuple {
				return t.At(i).Type()
			}
			return res
		}
		isBool := n == 1 && isBoolType(result(0))
		if !isBool && !isErrorType(result(n-1)) {
			return
		}
		c = &condResult{call: call, targets: targets, isBool: isBool}
		if fa.condResults == nil {
			fa.condResults = map[*ast.CallExpr]*condResult{}
		}
		fa.condResults[call] = c
	}
	if v := fa.localVar(lhs[n-1]); v != nil {
		s.setCond(v, c)
	}
}

// localVar returns the local variable e names, if any.
func (fa *funcAnalysis) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, ok := fa.info.ObjectOf(id).(*types.Var)
	if !ok || isPackageLevel(v) {
		return nil
	}
	return v
}

func isBoolType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
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

// condShape finds what decides a condition about locks: a TryLock-like
// call (mu.TryLock()), a local holding the result of one (if ok), a
// comparison of a local holding the error of a call that takes locks only
// when it succeeds with nil (if err != nil), their negations, and those
// inside && and ||. It returns the locks decided, where they were taken,
// and what each branch does to them.
func (fa *funcAnalysis) condShape(e ast.Expr, s *State) (targets []tryTarget, site token.Pos, t, f outcome, ok bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			targets, site, t, f, ok = fa.condShape(e.X, s)
			return targets, site, f, t, ok
		}
	case *ast.CallExpr:
		if fa.isTry(e) {
			return fa.condTargets(e, nil), e.Pos(), acquired, unchanged, true
		}
	case *ast.Ident:
		if c := s.conds[fa.localVar(e)]; c != nil && c.isBool {
			return c.targets, c.call.Pos(), acquired, notAcquired, true
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ:
			x, y := ast.Unparen(e.X), ast.Unparen(e.Y)
			if fa.info.Types[x].IsNil() {
				x, y = y, x
			}
			c := s.conds[fa.localVar(x)]
			if c == nil || c.isBool || !fa.info.Types[y].IsNil() {
				return nil, token.NoPos, 0, 0, false
			}
			if e.Op == token.NEQ { // err != nil: failed
				return c.targets, c.call.Pos(), notAcquired, acquired, true
			}
			return c.targets, c.call.Pos(), acquired, notAcquired, true
		case token.LAND, token.LOR:
		default:
			return nil, token.NoPos, 0, 0, false
		}
		ta, sa, ta2, fa2, oka := fa.condShape(e.X, s)
		tb, sb, tb2, fb, okb := fa.condShape(e.Y, s)
		switch {
		case oka == okb:
			return nil, token.NoPos, 0, 0, false
		case e.Op == token.LAND && okb: // a && TryLock
			return tb, sb, tb2, merge(unchanged, fb), true
		case e.Op == token.LAND: // TryLock && b
			return ta, sa, ta2, merge(fa2, ta2), true
		case okb: // a || TryLock
			return tb, sb, merge(unchanged, tb2), fb, true
		default: // TryLock || b
			return ta, sa, merge(ta2, fa2), fa2, true
		}
	}
	return nil, token.NoPos, 0, 0, false
}

// tryLockCond splits the state on a condition decided by a TryLock, by a
// function that acquires a lock only when it returns true, or by the error
// of one that acquires it only when the error is nil.
func (fa *funcAnalysis) tryLockCond(e ast.Expr, s *State) (t, f *State, ok bool) {
	targets, site, tOut, fOut, ok := fa.condShape(e, s)
	if !ok || len(targets) == 0 {
		return nil, nil, false
	}
	pre := make([]LockVal, len(targets))
	for i, tt := range targets {
		pre[i] = s.Lock(tt.lock)
	}
	fa.expr(e, s, useBase) // operands and accesses; the TryLock itself sets Maybe
	set := func(st *State, o outcome) {
		for i, tt := range targets {
			p := tt.lock
			switch o {
			case unchanged:
				st.set(p, pre[i])
			case acquired:
				st.set(p, LockVal{Mode: tt.mode, Site: site})
			case notAcquired:
				st.set(p, LockVal{Mode: Unknown, Site: site})
			case mixed:
				st.set(p, LockVal{Mode: Maybe, Site: site})
			}
		}
	}
	t = s.clone()
	set(t, tOut)
	set(s, fOut)
	return t, s, true
}
