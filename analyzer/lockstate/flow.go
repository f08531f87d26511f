package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// funcAnalysis runs the lock-state dataflow over one body: a declared
// function, or a closure inside one (which shares its resolver, so that
// captured variables are the same roots inside and out).
type funcAnalysis struct {
	// deepWrites are the fields whose pointee an assignment writes
	// (markDeepWrite), for inference.
	deepWrites map[*ast.SelectorExpr]bool
	a          *packageAnalysis
	info       *types.Info
	decl       *ast.FuncDecl
	fn         *types.Func
	sig        *types.Signature
	body       *ast.BlockStmt
	lit        *ast.FuncLit
	res        *lockpath.Resolver
	entry      *State

	// rangeAssign holds the targets go/cfg lists as nodes of their own:
	// a range statement's key and value (true when assigned with =), and
	// the target of a select case's assignment (case x.f = <-ch), already
	// recorded with its assignment statement (false).
	rangeAssign map[ast.Expr]bool
	commSelect  map[ast.Node]*ast.SelectStmt // channel ops that are a select's cases
	rangeChan   map[ast.Expr]*ast.RangeStmt  // for v := range ch
	localLits   map[*types.Var]*ast.FuncLit  // f := func(){...} used only as f(...)
	watched     map[*types.Var]ast.Expr      // p := &x.f or m := x.m (map, slice) of a guarded field
	addrs       map[*types.Var]*addrSource   // p := &x.f[i]...: writes through p write x.f
	isLocalLit  map[*ast.FuncLit]bool

	final bool  // the last pass, after the fixpoint: events are recorded
	rec   *Func // where events go (nil when only summarising)
	exits []*State
	// exitRets are the return statements of exits (nil for the end of the
	// body), one for each.
	exitRets []*ast.ReturnStmt
	// freshResult: every return so far returns one new, unpublished object
	// (a constructor such as func newT() *T { t := &T{}; ...; return t }).
	freshResult, returned bool

	// Deferred calls are checked against the state at return, not at the
	// defer statement: pending collects them in the final pass, exitStates
	// are the states at the returns (before the defers run), each with the
	// defers registered on its paths.
	pending    []*deferInfo
	exitStates []*State
	// assumed are the locks the body releases or takes before anything on
	// the path touched them: their state on entry (see firstUse).
	assumed map[lockpath.Path]LockVal
	ended   bool // the current block ended in return or a call that never returns

	// pacc, when summarising, collects what the body does through its
	// pointer parameters.
	pacc *paramAccess

	// Fresh objects stored in fresh objects (see fresh.go).
	links    map[*types.Var][]*types.Var
	retLinks map[*types.Var]bool
	linkCall *ast.CallExpr // the call whose result goes into linkTo
	linkTo   *types.Var

	quick bool // one walk in source order, no dataflow (see quickWalk)

	pinned map[*types.Var]*pin // fresh objects stored under a held lock (see pinStore)

	condResults map[*ast.CallExpr]*condResult   // see noteResults
	deferPairs  map[*ast.CallExpr]*ast.CallExpr // see pairedRelease
	// recvFrom, recvTo: while a paired release's lock type effect is
	// applied, receiver paths under recvFrom stand for recvTo.
	recvFrom, recvTo lockpath.Path
}

func (a *packageAnalysis) newFuncAnalysis(fd *ast.FuncDecl, fn *types.Func) *funcAnalysis {
	fa := &funcAnalysis{
		a: a, info: a.pass.TypesInfo, decl: fd, fn: fn, sig: fn.Type().(*types.Signature), body: fd.Body,
		res: lockpath.NewResolver(a.pass.TypesInfo, fd.Body),
	}
	fa.scanRanges()
	fa.scanLocalLits()
	if a.candidates == nil { // summaries alone record no uses
		fa.scanReferences()
		fa.scanAddrs()
	}
	return fa
}

// scanReferences finds locals that take a reference into a guarded field:
// p := &x.f, or m := x.m where the field is a map or slice, whose contents
// the guard covers. Their uses are recorded for the escape rule.
func (fa *funcAnalysis) scanReferences() {
	fa.watched = map[*types.Var]ast.Expr{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			id, ok := as.Lhs[i].(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := fa.info.Defs[id].(*types.Var)
			e := ast.Unparen(rhs)
			addr := false
			if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
				e, addr = ast.Unparen(u.X), true
			}
			sel, ok := e.(*ast.SelectorExpr)
			if !ok || v == nil {
				continue
			}
			field, _ := fa.info.Uses[sel.Sel].(*types.Var)
			if g := fa.a.dirs.Guard(field); g == nil || len(g.By) == 0 {
				continue
			}
			if addr || astq.IsContainer(field.Type()) {
				fa.watched[v] = sel
			}
		}
		return true
	})
}

// scanLocalLits finds closures bound to a local variable that is never
// reassigned and only ever called: f := func() { ... }; ...; f(). Such a
// closure runs where it is called, with the caller's locks, like a closure
// called in place.
func (fa *funcAnalysis) scanLocalLits() {
	fa.localLits, fa.isLocalLit = map[*types.Var]*ast.FuncLit{}, map[*ast.FuncLit]bool{}
	uses, calls := map[*types.Var]int{}, map[*types.Var]int{}
	hasLit := false
	ast.Inspect(fa.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			hasLit = true
		case *ast.Ident:
			if v, ok := fa.info.Uses[n].(*types.Var); ok {
				uses[v]++
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if v, ok := fa.info.Uses[id].(*types.Var); ok {
					calls[v]++
				}
			}
		}
		return true
	})
	if !hasLit {
		return
	}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := fa.info.Defs[id].(*types.Var)
		if !ok || uses[v] == 0 || uses[v] != calls[v] {
			return true
		}
		if lit, ok := ast.Unparen(fa.res.Def(id)).(*ast.FuncLit); ok {
			fa.localLits[v], fa.isLocalLit[lit] = lit, true
		}
		return true
	})
}

// localLit returns the closure a called identifier is bound to, if any.
func (fa *funcAnalysis) localLit(fun ast.Expr) *ast.FuncLit {
	if id, ok := ast.Unparen(fun).(*ast.Ident); ok {
		if v, ok := fa.info.Uses[id].(*types.Var); ok {
			return fa.localLits[v]
		}
	}
	return nil
}

func (fa *funcAnalysis) closureAnalysis(lit *ast.FuncLit) *funcAnalysis {
	sub := &funcAnalysis{
		a: fa.a, info: fa.info, decl: fa.decl, fn: fa.fn, sig: fa.info.Types[lit].Type.(*types.Signature),
		body: lit.Body, lit: lit, res: fa.res, rangeAssign: fa.rangeAssign,
		commSelect: fa.commSelect, rangeChan: fa.rangeChan, watched: fa.watched, addrs: fa.addrs,
		localLits: fa.localLits, isLocalLit: fa.isLocalLit, pacc: fa.pacc,
	}
	return sub
}

func (fa *funcAnalysis) scanRanges() {
	fa.rangeAssign = map[ast.Expr]bool{}
	fa.commSelect = map[ast.Node]*ast.SelectStmt{}
	fa.rangeChan = map[ast.Expr]*ast.RangeStmt{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					fa.rangeAssign[e] = n.Tok == token.ASSIGN
				}
			}
			if _, ok := fa.info.TypeOf(n.X).Underlying().(*types.Chan); ok {
				fa.rangeChan[n.X] = n
			}
		case *ast.SelectStmt:
			// The channel operations of a select's cases are one operation:
			// the select, which blocks unless it has a default case.
			for _, cc := range n.Body.List {
				if comm := cc.(*ast.CommClause).Comm; comm != nil {
					if as, ok := comm.(*ast.AssignStmt); ok && len(as.Lhs) > 0 {
						fa.rangeAssign[as.Lhs[0]] = false
					}
					ast.Inspect(comm, func(m ast.Node) bool {
						switch m.(type) {
						case *ast.SendStmt, *ast.UnaryExpr:
							fa.commSelect[m] = n
						}
						return true
					})
				}
			}
		}
		return true
	})
}

// chanOp records a channel operation (or the select it is part of) with
// the lock state there.
func (fa *funcAnalysis) chanOp(n ast.Node, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	op := &ChanOp{Node: n, State: s.snapshot()}
	switch n.(type) {
	case *ast.SendStmt:
		op.Kind = Send
	case *ast.UnaryExpr:
		op.Kind = Receive
	case *ast.RangeStmt:
		op.Kind = RangeReceive
	}
	if sel := fa.commSelect[n]; sel != nil {
		for _, prev := range fa.rec.ChanOps {
			if prev.Node == sel {
				return // one record per select
			}
		}
		op.Node, op.Kind = sel, Select
		for _, cc := range sel.Body.List {
			if cc.(*ast.CommClause).Comm == nil {
				op.NonBlocking = true // has a default case
			}
		}
	}
	fa.rec.ChanOps = append(fa.rec.ChanOps, op)
}

// entryState is the state a declared function starts in: what its contract
// says, and nothing else.
func (fa *funcAnalysis) entryState() *State {
	s := newState()
	// Parameters start "fresh" only to learn whether the function publishes
	// them (see noEscape); isFresh never exempts a parameter's accesses.
	if fa.a.fresh {
		for _, p := range fa.params() {
			s.setFresh(p, true)
		}
	}
	c := fa.a.dirs.Contract(fa.fn)
	if c == nil {
		return s
	}
	pos := fa.decl.Name.Pos()
	set := func(refs []directives.LockRef, v LockVal) {
		for _, r := range refs {
			if p := fa.refInBody(r); p.Valid() {
				v.Site = pos
				s.set(p, v)
			}
		}
	}
	set(c.Holds, LockVal{Mode: Exclusive})
	set(c.RHolds, LockVal{Mode: Shared})
	set(c.Releases, LockVal{Mode: Exclusive})
	set(c.RReleases, LockVal{Mode: Shared})
	set(c.Acquires, LockVal{Mode: NotHeld})
	set(c.RAcquires, LockVal{Mode: NotHeld})
	set(c.Excludes, LockVal{Mode: NotHeld})
	return s
}

func (fa *funcAnalysis) refInBody(r directives.LockRef) lockpath.Path {
	return RefInBody(fa.a.dirs, fa.sig, r)
}

// RefInBody resolves a contract path inside the function it annotates
// (whose signature is sig): rooted at its receiver, a parameter, a named
// result, or a package-level variable.
func RefInBody(dirs *directives.Result, sig *types.Signature, r directives.LockRef) lockpath.Path {
	return dirs.CanonLock(refInBody(dirs, sig, r))
}

func refInBody(dirs *directives.Result, sig *types.Signature, r directives.LockRef) lockpath.Path {
	switch r.Kind {
	case directives.Param:
		var v *types.Var
		switch {
		case r.Param == directives.Receiver:
			v = sig.Recv()
		case r.Param < sig.Params().Len():
			v = sig.Params().At(r.Param)
		case r.Param-sig.Params().Len() < sig.Results().Len():
			v = sig.Results().At(r.Param - sig.Params().Len())
		}
		if v == nil {
			return lockpath.Path{}
		}
		return lockpath.Path{Root: v, Sel: r.Sel}
	case directives.Global:
		if v := dirs.Global(r); v != nil {
			return lockpath.Path{Root: v, Sel: r.Sel}
		}
	}
	return lockpath.Path{}
}

// visitBudget bounds the dataflow at this many visits per block. The
// lattice is finite (lock paths are bounded by lockpath.MaxParts), so the
// budget only turns a bug into a reported "not checked" instead of a hang.
var visitBudget = 64

// analyse runs the dataflow to a fixpoint, then once more to record events
// into rec (when not nil). It returns the states at normal returns.
func (fa *funcAnalysis) analyse(entry *State, rec *Func) []*State {
	fa.entry = entry
	g := flowgraph.New(fa.info, fa.body)
	in := make([]*State, len(g.Blocks))
	if len(g.Blocks) == 0 {
		return nil
	}
	in[0] = entry.clone()
	// Worklist in block order: a block is re-run only when its input
	// changed. The lattice is finite, so this ends; the visit budget is a
	// guard against a bug turning into a hang.
	queued := make([]bool, len(g.Blocks))
	work := []int32{0}
	queued[0] = true
	for budget := visitBudget * len(g.Blocks); len(work) > 0 && budget > 0; budget-- {
		slices.Sort(work)
		i := work[0]
		work = work[1:]
		queued[i] = false
		b := g.Blocks[i]
		if !b.Live {
			continue
		}
		outs := fa.transfer(b, in[i].clone())
		for k, succ := range b.Succs {
			out := outs[0]
			if len(outs) > k {
				out = outs[k]
			}
			next := join(in[succ.Index], out)
			if in[succ.Index] == nil || !next.equal(in[succ.Index]) {
				in[succ.Index] = next
				if !queued[succ.Index] {
					queued[succ.Index] = true
					work = append(work, succ.Index)
				}
			}
		}
	}
	converged := len(work) == 0
	fa.final, fa.rec, fa.exits, fa.exitRets = true, rec, nil, nil
	fa.freshResult, fa.returned = true, false
	fa.pending, fa.exitStates = nil, nil
	if rec != nil {
		rec.Entry = entry
		rec.Resolver = fa.res
	}
	for _, b := range g.Blocks {
		if in[b.Index] != nil && b.Live {
			fa.transfer(b, in[b.Index].clone())
		}
	}
	fa.replayDefers()
	if rec != nil && !converged {
		// The states are not final, so no event recorded from them can be
		// trusted either way. Drop them: the function is reported as not
		// checked, and nothing else is said about it.
		*rec = Func{Decl: rec.Decl, Lit: rec.Lit, Obj: rec.Obj, Context: rec.Context,
			Entry: rec.Entry, Resolver: rec.Resolver, Unconverged: true}
	}
	if rec != nil {
		rec.Implied = fa.impliedEntry(entry)
		fa.a.funcs = append(fa.a.funcs, rec)
	}
	fa.final = false
	return fa.exits
}

// transfer runs one block. It returns one state per successor when a
// TryLock condition splits them, else a single state for all.
func (fa *funcAnalysis) transfer(b *cfg.Block, s *State) []*State {
	fa.ended = false
	for i, n := range b.Nodes {
		if i == len(b.Nodes)-1 && len(b.Succs) == 2 {
			if e, ok := n.(ast.Expr); ok {
				if t, f, ok := fa.tryLockCond(e, s); ok {
					return []*State{t, f}
				}
				if t, f, ok := fa.sameCond(e, s); ok {
					return []*State{t, f}
				}
			}
		}
		fa.node(n, s)
	}
	if len(b.Succs) == 0 && !fa.ended && fa.final {
		fa.exit(fa.body.Rbrace, nil, s)
	}
	return []*State{s}
}

func (fa *funcAnalysis) exit(pos token.Pos, ret *ast.ReturnStmt, s *State) {
	if len(s.defers) > 0 {
		fa.exitStates = append(fa.exitStates, s.clone())
	}
	ex := s.runDefers()
	fa.exits = append(fa.exits, ex)
	fa.exitRets = append(fa.exitRets, ret)
	if fa.rec != nil {
		fa.rec.Returns = append(fa.rec.Returns, &Return{Pos: pos, Node: ret, Exit: ex})
	}
}

type use uint8

const (
	useRead  use = iota // the value is read (and may be copied away)
	useWrite            // the location is written, or its address escapes
	useBase             // a selector base: x in x.f (no escape)
	// The rest describe what happens to the memory a pointer points to, or
	// to a location whose address is taken: only pointer parameters (see
	// paramAccess) and the locals aliasing them care.
	useDeref       // the pointee is written: p.f = v, *p = v
	useLoad        // the pointee is read: p.f
	useAtomicRead  // the pointee is read through sync/atomic
	useAtomicWrite // the pointee is written through sync/atomic
	useAddr        // &x: the address is taken where it cannot be written through
)

// derefUse is what a use of *p (p.f, p[i] for a pointer to an array) does
// to p.
func derefUse(u use) use {
	switch u {
	case useWrite:
		return useDeref
	case useAtomicRead, useAtomicWrite:
		return u
	}
	return useLoad
}

// valueUse is what a use of x.f (or x[i], x an array) does to x when x is a
// struct (array) value: writing, addressing or atomically accessing a part
// of x does the same to x.
func valueUse(u use) use {
	switch u {
	case useWrite, useAddr, useAtomicRead, useAtomicWrite:
		return u
	}
	return useBase
}

func (fa *funcAnalysis) node(n ast.Node, s *State) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, lhs := range n.Lhs {
			fa.markDeepWrite(lhs)
		}
		if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
			for i, lhs := range n.Lhs {
				if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
					fa.mapEntry(n, ix.X, ix.Index, n.Rhs[i], s)
				}
			}
		}
		fa.assign(n, s)
	case *ast.IncDecStmt:
		fa.markDeepWrite(n.X)
		fa.expr(n.X, s, useWrite)
	case *ast.ExprStmt:
		fa.expr(n.X, s, useRead)
		if call, ok := n.X.(*ast.CallExpr); ok && !flowgraph.MayReturn(fa.info, call) {
			fa.ended = true
		}
	case *ast.SendStmt:
		fa.expr(n.Chan, s, useBase)
		fa.expr(n.Value, s, useRead)
		fa.chanOp(n, s)
	case *ast.GoStmt:
		fa.goStmt(n, s)
	case *ast.DeferStmt:
		fa.deferStmt(n, s)
	case *ast.ReturnStmt:
		if fa.final {
			fa.returned = true
			fa.freshResult = fa.freshResult && len(n.Results) == 1 && (fa.isAlloc(n.Results[0]) || (fa.isFresh(n.Results[0], s) && !fa.isPinned(n.Results[0])))
		}
		for _, r := range n.Results {
			if len(n.Results) == 1 && fa.freshResult && fa.final {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && fa.isFresh(id, s) && !fa.isPinned(id) {
					fa.link(nil, fa.info.Uses[id].(*types.Var))
					fa.expr(r, s, useBase) // the new result: what it holds is counted at the exits
					continue
				}
				if fa.storeInto(nil, r, s, true) {
					continue
				}
			}
			fa.expr(r, s, useRead)
		}
		fa.ended = true
		if fa.final {
			fa.bindResults(n, s)
			fa.exit(n.Pos(), n, s)
		}
	case *ast.ValueSpec:
		for _, v := range n.Values {
			fa.expr(v, s, useRead)
		}
		for i, id := range n.Names {
			if v, ok := fa.info.Defs[id].(*types.Var); ok {
				s.setFresh(v, false)
				if len(n.Values) == 0 && isStructValue(v.Type()) {
					s.setFresh(v, true) // var x T: a new object
				} else if len(n.Values) == len(n.Names) && fa.isAlloc(n.Values[i]) {
					s.setFresh(v, true)
				}
			}
		}
		if len(n.Values) == 1 {
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			fa.resultEffects(n.Values[0], lhs, s)
			fa.noteResults(n.Values[0], lhs, s)
		}
	case ast.Expr:
		if r := fa.rangeChan[n]; r != nil {
			fa.expr(n, s, useBase)
			fa.chanOp(r, s)
			return
		}
		if assign, isRange := fa.rangeAssign[n]; isRange {
			if assign {
				fa.expr(n, s, useWrite)
				// for _, c = range cs: c names another element each
				// iteration.
				if to := fa.res.Of(n); to.Valid() {
					forgetLocks(s, to)
				}
			}
			return
		}
		fa.expr(n, s, useBase)
	}
}

// bindResults makes the named results hold what return r returns, for the
// locks inside them: return b1, b2 in a function declared to acquire
// lockedFirst.mu leaves lockedFirst.mu as b1.mu is.
func (fa *funcAnalysis) bindResults(r *ast.ReturnStmt, s *State) {
	res := fa.sig.Results()
	if len(r.Results) != res.Len() {
		return
	}
	for i, e := range r.Results {
		v := res.At(i)
		if v.Name() == "" || v.Name() == "_" {
			continue
		}
		base := fa.res.Of(e)
		if base.Root == types.Object(v) {
			continue
		}
		for p := range s.locks {
			if p.Root == types.Object(v) {
				s.deleteLock(p) // rebound: what it held before is not returned (nil holds nothing)
			}
		}
		if !base.Valid() {
			continue
		}
		for p, val := range s.locks {
			if p.Root == base.Root && (p.Sel == base.Sel || strings.HasPrefix(p.Sel, base.Sel+".")) {
				s.set(lockpath.Path{Root: v, Sel: p.Sel[len(base.Sel):]}, val)
			}
		}
	}
}

func isStructValue(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// isAlloc reports whether e makes a new object: NewObject, or a call of
// a constructor that returns a new object it has not published.
func (fa *funcAnalysis) isAlloc(e ast.Expr) bool {
	if astq.NewObject(fa.info, e) {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && fa.a.freshResultOf(fa.info, call)
}

func (fa *funcAnalysis) assign(n *ast.AssignStmt, s *State) {
	for i, r := range n.Rhs {
		if len(n.Lhs) == len(n.Rhs) && (fa.selfStore(n.Lhs[i], r, s) || fa.aliasDef(n.Lhs[i], r, s)) {
			continue
		}
		if len(n.Lhs) == len(n.Rhs) {
			if x := fa.freshRoot(n.Lhs[i], s); x != nil && fa.storeInto(x, r, s, false) {
				continue
			}
			if fa.pinStore(n.Lhs[i], r, s) {
				continue
			}
			if id, ok := ast.Unparen(n.Lhs[i]).(*ast.Ident); ok {
				if v, ok := fa.info.ObjectOf(id).(*types.Var); ok && !isPackageLevel(v) && fa.storeInto(v, r, s, true) {
					continue
				}
			}
		}
		fa.expr(r, s, useRead)
	}
	fa.rebind(n, s)
	for i, lhs := range n.Lhs {
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			if v, ok := fa.info.ObjectOf(id).(*types.Var); ok && !isPackageLevel(v) {
				if fa.info.Uses[id] != nil {
					fa.recordVar(id, v, useWrite, s)
				}
				s.setFresh(v, false)
				if len(n.Lhs) == len(n.Rhs) && fa.isAlloc(n.Rhs[i]) {
					s.setFresh(v, true)
				} else if len(n.Lhs) == len(n.Rhs) {
					fa.pointInto(v, n.Rhs[i], s)
				}
				continue
			}
		}
		fa.expr(lhs, s, useWrite)
	}
	if len(n.Rhs) == 1 {
		fa.resultEffects(n.Rhs[0], n.Lhs, s)
		fa.noteResults(n.Rhs[0], n.Lhs, s)
	} else {
		fa.noteResults(nil, n.Lhs, s)
	}
}

// rebind updates the lock state for an assignment that makes a path name
// another object: after c = d (or o.inner = x), what was known of the locks
// inside c is about the old object, so it is forgotten; when the new value
// is itself a path, what is known of the locks inside it now holds under
// the assigned name too (hand-over-hand: next.mu.Lock(); cur.mu.Unlock();
// cur = next).
func (fa *funcAnalysis) rebind(n *ast.AssignStmt, s *State) {
	type move struct{ to, from lockpath.Path }
	var moves []move
	for i, lhs := range n.Lhs {
		to := fa.res.Of(lhs)
		if !to.Valid() {
			continue
		}
		var from lockpath.Path
		if len(n.Lhs) == len(n.Rhs) {
			from = fa.res.Of(n.Rhs[i])
		}
		if id, isID := ast.Unparen(lhs).(*ast.Ident); isID && fa.info.Defs[id] != nil && !from.Valid() {
			continue // a new variable, from no path: nothing is known of it
		}
		moves = append(moves, move{to, from})
	}
	if len(moves) == 0 || len(s.locks) == 0 {
		return
	}
	old := maps.Clone(s.locks) // a, b = b, a reads the state before either store
	for _, m := range moves {
		forgetLocks(s, m.to)
		if !m.from.Valid() {
			continue
		}
		for p, v := range old {
			if p.Root == m.from.Root && (p.Sel == m.from.Sel || strings.HasPrefix(p.Sel, m.from.Sel+".")) {
				if moved := (lockpath.Path{Root: m.to.Root, Sel: m.to.Sel + p.Sel[len(m.from.Sel):]}); moved.Parts() <= lockpath.MaxParts {
					s.set(fa.canon(moved), v)
				}
			}
		}
	}
}

// forgetLocks drops what is known of the locks inside the object at to,
// which has just been made to name another object.
func forgetLocks(s *State, to lockpath.Path) {
	for p := range s.locks {
		if p.Root == to.Root && (p.Sel == to.Sel || strings.HasPrefix(p.Sel, to.Sel+".")) {
			s.deleteLock(p)
		}
	}
}

// selfStore reports whether rhs is a fresh local stored inside itself
// (nt.tmpl[name] = nt): that does not publish it.
func (fa *funcAnalysis) selfStore(lhs, rhs ast.Expr, s *State) bool {
	id, ok := ast.Unparen(rhs).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok || !s.fresh[v] {
		return false
	}
	for {
		switch e := ast.Unparen(lhs).(type) {
		case *ast.SelectorExpr:
			lhs = e.X
			continue
		case *ast.IndexExpr:
			lhs = e.X
			continue
		case *ast.StarExpr:
			lhs = e.X
			continue
		case *ast.Ident:
			return fa.info.Uses[e] == types.Object(v)
		}
		return false
	}
}

func isPackageLevel(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// expr walks an expression in evaluation order, recording accesses and
// applying the lock effects of the calls in it.
func (fa *funcAnalysis) expr(e ast.Expr, s *State, u use) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		fa.expr(e.X, s, u)
	case *ast.Ident:
		fa.ident(e, s, u)
	case *ast.SelectorExpr:
		fa.selector(e, s, u)
	case *ast.IndexExpr:
		if tv, ok := fa.info.Types[e.X]; ok && tv.IsType() {
			return // generic instantiation
		}
		xu := useBase
		switch xt := fa.info.TypeOf(e.X); {
		case astq.IsPointer(xt): // p[i], p a pointer to an array
			xu = derefUse(u)
		case isArray(xt):
			xu = valueUse(u)
		case u == useWrite:
			xu = useWrite // element store writes the container
		}
		fa.expr(e.X, s, xu)
		fa.expr(e.Index, s, useRead)
	case *ast.IndexListExpr:
	case *ast.StarExpr:
		fa.expr(e.X, s, derefUse(u))
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			switch u {
			case useDeref: // (&x.f).m() where m writes its receiver
				fa.expr(e.X, s, useWrite)
			case useBase, useLoad, useAddr: // compared, or read through
				fa.expr(e.X, s, useAddr)
			case useAtomicRead, useAtomicWrite:
				fa.expr(e.X, s, u)
			default: // &x.f stored, returned or passed on: may be written through
				fa.expr(e.X, s, useWrite)
				fa.publishRoot(e.X, s) // and x is reachable through it
			}
			return
		}
		fa.expr(e.X, s, useBase)
		if e.Op == token.ARROW {
			fa.chanOp(e, s)
		}
	case *ast.BinaryExpr:
		fa.expr(e.X, s, useBase)
		fa.expr(e.Y, s, useBase)
	case *ast.CallExpr:
		fa.call(e, s, false)
	case *ast.CompositeLit:
		_, isStruct := types.Unalias(fa.info.TypeOf(e)).Underlying().(*types.Struct)
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if !isStruct {
					fa.expr(kv.Key, s, useRead)
				}
				fa.expr(kv.Value, s, useRead)
				continue
			}
			fa.expr(elt, s, useRead)
		}
	case *ast.FuncLit:
		if !fa.isLocalLit[e] { // a local closure is analysed where it is called
			fa.closure(e, s, Escaping)
		}
	case *ast.KeyValueExpr:
		fa.expr(e.Value, s, useRead)
	case *ast.SliceExpr:
		switch xt := fa.info.TypeOf(e.X); {
		case isArray(xt) && u == useRead:
			// x.arr[:] handed on aliases x.arr, like &x.arr.
			fa.expr(e.X, s, useWrite)
		case isArray(xt):
			fa.expr(e.X, s, useAddr)
		case astq.IsPointer(xt): // p[:], p a pointer to an array
			if u == useRead {
				fa.expr(e.X, s, useDeref)
			} else {
				fa.expr(e.X, s, useLoad)
			}
		default:
			fa.expr(e.X, s, useBase)
		}
		for _, x := range []ast.Expr{e.Low, e.High, e.Max} {
			if x != nil {
				fa.expr(x, s, useRead)
			}
		}
	case *ast.TypeAssertExpr:
		fa.expr(e.X, s, useRead)
	}
}

func (fa *funcAnalysis) ident(id *ast.Ident, s *State, u use) {
	fa.variable(id, id, s, u)
}

// variable handles a use of a variable, written as node: id itself, or
// pkg.id for another package's variable.
func (fa *funcAnalysis) variable(node ast.Expr, id *ast.Ident, s *State, u use) {
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	fa.recordVar(id, v, u, s)
	if isPackageLevel(v) {
		if g := fa.a.dirs.Guard(v); g.Guards() {
			fa.record(&Access{Node: node, Pos: id.Pos(), Var: v, Guard: g, Write: u == useWrite}, s)
		}
		return
	}
	if u == useRead && s.fresh[v] {
		fa.publish(s, v) // copied, passed, stored or returned: published
	}
	if fa.pacc != nil && fa.final && fa.pacc.root(v) != nil {
		fa.pacc.note(v, fa.res.Of(id), u, s)
	}
	fa.addrUse(id, v, u, s)
	if src := fa.watched[v]; src != nil && fa.final && fa.rec != nil {
		fa.rec.Uses = append(fa.rec.Uses, &Use{Var: v, Node: node, Source: src, State: s.snapshot()})
	}
}

// recordVar records a use of a package-level or captured variable, or of
// a parameter of the declaration that refers to memory its caller can
// share (a pointer, slice or map), when the configuration asks for them
// (Func.Vars).
func (fa *funcAnalysis) recordVar(id *ast.Ident, v *types.Var, u use, s *State) {
	if fa.final && fa.rec != nil && fa.a.vars && (isPackageLevel(v) || fa.a.captured(fa.decl)[v] || fa.a.refParams(fa.decl)[v]) {
		fa.rec.Vars = append(fa.rec.Vars, &VarAccess{Node: id, Var: v, Use: varUse(u), State: s.snapshot()})
	}
}

func varUse(u use) VarUse {
	switch u {
	case useWrite:
		return VarWrite
	case useDeref:
		return VarDeref
	case useAtomicRead, useAtomicWrite:
		return VarAtomic
	case useAddr:
		return VarAddrCompare
	}
	return VarRead
}

// refParams returns the parameters of a declaration (its receiver
// included) through which it can reach its caller's memory: pointers,
// slices and maps (computed once per declaration).
func (a *packageAnalysis) refParams(fd *ast.FuncDecl) map[*types.Var]bool {
	if p, ok := a.paramVars[fd]; ok {
		return p
	}
	p := map[*types.Var]bool{}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, name := range f.Names {
				if v, ok := a.pass.TypesInfo.Defs[name].(*types.Var); ok && astq.IsRef(v.Type()) {
					p[v] = true
				}
			}
		}
	}
	a.paramVars[fd] = p
	return p
}

// captured returns the locals of a declaration that one of its closures
// uses but does not declare (computed once per declaration).
func (a *packageAnalysis) captured(fd *ast.FuncDecl) map[*types.Var]bool {
	if c, ok := a.capturedVars[fd]; ok {
		return c
	}
	c := map[*types.Var]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && !isPackageLevel(v) &&
					(v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
					c[v] = true
				}
			}
			return true
		})
		return true // an inner closure captures its outer closure's locals too
	})
	a.capturedVars[fd] = c
	return c
}

func (fa *funcAnalysis) selector(e *ast.SelectorExpr, s *State, u use) {
	if id, ok := e.X.(*ast.Ident); ok {
		if _, isPkg := fa.info.Uses[id].(*types.PkgName); isPkg {
			fa.variable(e, e.Sel, s, u) // pkg.Var
			return
		}
	}
	sel := fa.info.Selections[e]
	if sel == nil {
		return
	}
	if sel.Kind() != types.FieldVal {
		fa.expr(e.X, s, useRead) // method value: the receiver is copied
		return
	}
	// x.inner.f = v writes the struct-valued field x.inner; p.f = v writes
	// what p points to.
	var xu use
	if astq.IsPointer(fa.info.TypeOf(e.X)) {
		xu = derefUse(u)
		if field, _ := sel.Obj().(*types.Var); xu == useDeref && fa.a.dirs.Guard(field).Guards() {
			// A field with a guard of its own is checked against that
			// guard; writing it is not also a write of what p points into.
			xu = useLoad
		}
	} else {
		xu = valueUse(u)
	}
	fa.expr(e.X, s, xu)
	fa.fieldAccess(e, sel, s, u == useWrite, false)
}

// markDeepWrite notes, for inference, the field whose pointee an
// assignment writes: x.p in x.p.f = v or *x.p = v. That is a mutation of
// the field's state, as a map insert through it is, and counts as a write
// of it (only syntactic stores: a method called through x.p may or may not
// write, and a logger's would not).
func (fa *funcAnalysis) markDeepWrite(lhs ast.Expr) {
	if fa.rec == nil || !fa.a.dirs.Config.Infer() {
		return
	}
	var ptr ast.Expr
	for e := ast.Unparen(lhs); ptr == nil; {
		switch x := e.(type) {
		case *ast.StarExpr:
			ptr = ast.Unparen(x.X)
		case *ast.SelectorExpr:
			if sel := fa.info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return
			}
			if astq.IsPointer(fa.info.TypeOf(x.X)) {
				ptr = ast.Unparen(x.X)
				continue
			}
			e = ast.Unparen(x.X) // x.inner.f = v writes x.inner itself
		default:
			return
		}
	}
	if se, ok := ptr.(*ast.SelectorExpr); ok {
		if sel := fa.info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
			if fa.deepWrites == nil {
				fa.deepWrites = map[*ast.SelectorExpr]bool{}
			}
			fa.deepWrites[se] = true
		}
	}
}

func (fa *funcAnalysis) fieldAccess(e *ast.SelectorExpr, sel *types.Selection, s *State, write, atomic bool) {
	field, _ := sel.Obj().(*types.Var)
	g := fa.a.dirs.Guard(field)
	candidate := false
	if !g.Guards() {
		if !fa.a.dirs.Config.Infer() || g != nil || !(locks.HolderHasLock(sel) || locks.ParentHasLock(fa.info, e) || fa.a.hasPackageLock()) || !fa.final || fa.rec == nil {
			return
		}
		candidate = true
	}
	base := fa.res.Of(e.X)
	if base.Valid() {
		base = base.Field(locks.ImplicitFields(sel)...)
	}
	if g.Guards() && fa.a.dirs.ForcedAt(fa.a.pass.Fset, e.Sel.Pos()) {
		fa.force(g, base, s, e.Sel.Pos())
	}
	acc := &Access{Node: e, Pos: e.Sel.Pos(), Var: field, Guard: g, Base: base,
		Write: write, Atomic: atomic, Fresh: fa.isFresh(e.X, s)}
	if candidate {
		acc.Write = acc.Write || fa.deepWrites[e]
		acc.State = s.snapshot()
		fa.rec.Candidates = append(fa.rec.Candidates, acc)
		return
	}
	fa.record(acc, s)
}

// guardLock resolves a field guard's lock for a field of the struct at
// base (a package-level lock needs no base), by its canonical name.
func (fa *funcAnalysis) guardLock(ref directives.LockRef, base lockpath.Path) lockpath.Path {
	switch {
	case ref.Kind == directives.Global:
		if v := fa.a.dirs.Global(ref); v != nil {
			return fa.canon(lockpath.Path{Root: v, Sel: ref.Sel})
		}
	case base.Valid():
		return fa.canon(lockpath.Path{Root: base.Root, Sel: base.Sel + ref.Sel})
	}
	return lockpath.Path{}
}

// force applies +checklocksforce: the locks the guard names are held from
// this access on. Their site is the forced line, which says they are held
// for a reason the code does not show (the caller's), not taken here.
func (fa *funcAnalysis) force(g *directives.FieldGuard, base lockpath.Path, s *State, at token.Pos) {
	for _, ref := range g.By {
		if p := fa.guardLock(ref, base); p.Valid() && s.Lock(p).Mode != Exclusive {
			s.set(p, LockVal{Mode: Exclusive, Site: at})
		}
	}
}

// hasPackageLock reports whether the package declares a package-level
// lock: under inference, the fields of its lock-free structs are then
// candidates too, since such a lock may guard them.
func (a *packageAnalysis) hasPackageLock() bool {
	if a.pkgLock == 0 {
		a.pkgLock = -1
		if len(locks.PackageLocks(a.pass.Pkg)) > 0 {
			a.pkgLock = 1
		}
	}
	return a.pkgLock > 0
}

func (fa *funcAnalysis) record(acc *Access, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	acc.State = s.snapshot()
	fa.rec.Accesses = append(fa.rec.Accesses, acc)
}

// mapEntry records a delete or a store of m[k] when m's values are or
// hold locks.
func (fa *funcAnalysis) mapEntry(n ast.Node, m, k, v ast.Expr, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	mt, ok := fa.info.TypeOf(m).Underlying().(*types.Map)
	if !ok || !holdsLock(mt.Elem()) {
		return
	}
	fa.rec.MapEntries = append(fa.rec.MapEntries, &MapEntry{Node: n, Map: m, Key: k, Value: v, State: s.snapshot()})
}

// holdsLock reports whether a value of type t is a lock (or a pointer to
// one), or a struct, or a pointer to a struct, with a lock field.
func holdsLock(t types.Type) bool {
	if lock, _ := locks.IsLock(t); lock {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if lock, _ := locks.IsLock(st.Field(i).Type()); lock {
			return true
		}
	}
	return false
}

// params returns the receiver and parameters.
func (fa *funcAnalysis) params() []*types.Var {
	var ps []*types.Var
	if r := fa.sig.Recv(); r != nil {
		ps = append(ps, r)
	}
	for i := 0; i < fa.sig.Params().Len(); i++ {
		ps = append(ps, fa.sig.Params().At(i))
	}
	return ps
}

// isParam reports whether v is a parameter of this body or of the
// declaration a closure is in.
func (fa *funcAnalysis) isParam(v *types.Var) bool {
	if v == nil {
		return false
	}
	if slices.Contains(fa.params(), v) {
		return true
	}
	outer := fa.fn.Type().(*types.Signature)
	if outer.Recv() == v {
		return true
	}
	for i := 0; i < outer.Params().Len(); i++ {
		if outer.Params().At(i) == v {
			return true
		}
	}
	return false
}

// noEscape lists the parameters still unpublished at every return.
func (fa *funcAnalysis) noEscape(exits []*State) []int {
	if len(exits) == 0 {
		return nil
	}
	var out []int
	check := func(v *types.Var, i int) {
		for _, ex := range exits {
			if !ex.fresh[v] {
				return
			}
		}
		out = append(out, i)
	}
	fa.eachParam(func(v *types.Var, i int) {
		if !fa.retLinks[v] {
			check(v, i)
		}
	})
	return out
}

// eachParam calls f with the receiver and each parameter and its index.
func (fa *funcAnalysis) eachParam(f func(v *types.Var, i int)) {
	if r := fa.sig.Recv(); r != nil {
		f(r, directives.Receiver)
	}
	for i := 0; i < fa.sig.Params().Len(); i++ {
		f(fa.sig.Params().At(i), i)
	}
}

// isFresh reports whether e is a fresh local, or a value field inside the
// object one holds or points to (x.inner with x := &T{}, or var x T).
func (fa *funcAnalysis) isFresh(e ast.Expr, s *State) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := fa.info.Uses[e].(*types.Var)
		return ok && s.fresh[v] && !fa.isParam(v) && fa.pinHolds(v, s)
	case *ast.SelectorExpr:
		if sel := fa.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			if astq.IsPointer(fa.info.TypeOf(e.X)) {
				// Through a pointer: only the new object itself, not one
				// its pointer fields lead to.
				_, isIdent := ast.Unparen(e.X).(*ast.Ident)
				return isIdent && fa.isFresh(e.X, s)
			}
			return fa.isFresh(e.X, s)
		}
	}
	return false
}

func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}
