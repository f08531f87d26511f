package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
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
	// atomicLocals caches atomicLocal: 0 no, 1 atomic loads only, 2 with
	// an atomic write.
	atomicLocals map[*types.Var]uint8
	isLocalLit   map[*ast.FuncLit]bool

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
	// atBlock, atNode: the node the dataflow is at (where a defer
	// statement is, for exitsAfter). onExit, set while exitsAfter runs,
	// takes the states at the returns instead of recording them.
	atBlock int32
	atNode  int
	onExit  func(*State)
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

func (fa *funcAnalysis) closureAnalysis(lit *ast.FuncLit) *funcAnalysis {
	sub := &funcAnalysis{
		a: fa.a, info: fa.info, decl: fa.decl, fn: fa.fn, sig: fa.info.Types[lit].Type.(*types.Signature),
		body: lit.Body, lit: lit, res: fa.res, rangeAssign: fa.rangeAssign,
		commSelect: fa.commSelect, rangeChan: fa.rangeChan, watched: fa.watched, addrs: fa.addrs,
		localLits: fa.localLits, isLocalLit: fa.isLocalLit, pacc: fa.pacc,
	}
	return sub
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
	if len(g.Blocks) == 0 {
		return nil
	}
	// Worklist in block order: a block is re-run only when its input
	// changed. The lattice is finite, so this ends; the visit budget is a
	// guard against a bug turning into a hang.
	w := newWorklist(g)
	w.in[0] = entry.clone()
	w.queue(0)
	converged := w.run(g, fa.transfer)
	in := w.in
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
	fa.replayDefers(g)
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
	return fa.transferFrom(b, 0, s)
}

// transferFrom runs a block from its node start on.
func (fa *funcAnalysis) transferFrom(b *cfg.Block, start int, s *State) []*State {
	fa.ended = false
	fa.atBlock = b.Index
	for i := start; i < len(b.Nodes); i++ {
		n := b.Nodes[i]
		fa.atNode = i
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
	if len(b.Succs) == 0 && !fa.ended {
		switch {
		case fa.onExit != nil:
			fa.onExit(s)
		case fa.final:
			fa.exit(fa.body.Rbrace, nil, s)
		}
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

const (
	useRead  exprUse = iota // the value is read (and may be copied away)
	useWrite                // the location is written, or its address escapes
	useBase                 // a selector base: x in x.f (no escape)
	// The rest describe what happens to the memory a pointer points to, or
	// to a location whose address is taken: only pointer parameters (see
	// paramAccess) and the locals aliasing them care.
	useDeref       // the pointee is written: p.f = v, *p = v
	useLoad        // the pointee is read: p.f
	useAtomicRead  // the pointee is read through sync/atomic
	useAtomicWrite // the pointee is written through sync/atomic
	useAddr        // &x: the address is taken where it cannot be written through
)

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
		fa.returnStmt(n, s)
	case *ast.ValueSpec:
		fa.valueSpec(n, s)
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

// returnStmt walks a return: its results, whether the function returns
// a new object, and the exit state at it.
func (fa *funcAnalysis) returnStmt(n *ast.ReturnStmt, s *State) {
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
	switch {
	case fa.onExit != nil:
		fa.bindResults(n, s)
		fa.onExit(s)
	case fa.final:
		fa.bindResults(n, s)
		fa.exit(n.Pos(), n, s)
	}
}

// valueSpec walks var x, y = a, b: the values, then what the new
// variables hold.
func (fa *funcAnalysis) valueSpec(n *ast.ValueSpec, s *State) {
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
		for p := range lockEntries(s.locks) {
			if p.Root == types.Object(v) {
				s.deleteLock(p) // rebound: what it held before is not returned (nil holds nothing)
			}
		}
		if !base.Valid() {
			continue
		}
		for p, val := range lockEntries(s.locks) {
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
	if len(moves) == 0 || lockLen(s.locks) == 0 {
		return
	}
	old := s.locks // a, b = b, a reads the state before either store (a persistent map: this is a copy)
	for _, m := range moves {
		forgetLocks(s, m.to)
		if !m.from.Valid() {
			continue
		}
		for p, v := range lockEntries(old) {
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
	for p := range lockEntries(s.locks) {
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
	_, ok := directives.ParamOf(fa.fn.Type().(*types.Signature), v)
	return ok
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

// worklist runs a body's blocks, in block order, until their input states
// stop changing.
type worklist struct {
	in     []*State
	queued []bool
	work   []int32
}

func newWorklist(g *cfg.CFG) *worklist {
	return &worklist{in: make([]*State, len(g.Blocks)), queued: make([]bool, len(g.Blocks))}
}

func (w *worklist) queue(i int32) {
	if !w.queued[i] {
		w.queued[i] = true
		w.work = append(w.work, i)
	}
}

// flow joins b's output states (one per successor, or one for all) into
// its successors' inputs, and queues those that changed.
func (w *worklist) flow(b *cfg.Block, outs []*State) {
	for k, succ := range b.Succs {
		out := outs[0]
		if len(outs) > k {
			out = outs[k]
		}
		next := join(w.in[succ.Index], out)
		if w.in[succ.Index] == nil || !next.equal(w.in[succ.Index]) {
			w.in[succ.Index] = next
			w.queue(succ.Index)
		}
	}
}

// run transfers queued blocks until none is left, within the visit
// budget; it reports whether the list emptied (the fixpoint was reached).
func (w *worklist) run(g *cfg.CFG, transfer func(*cfg.Block, *State) []*State) bool {
	for budget := visitBudget * len(g.Blocks); len(w.work) > 0 && budget > 0; budget-- {
		slices.Sort(w.work)
		i := w.work[0]
		w.work = w.work[1:]
		w.queued[i] = false
		if b := g.Blocks[i]; b.Live {
			w.flow(b, transfer(b, w.in[i].clone()))
		}
	}
	return len(w.work) == 0
}
