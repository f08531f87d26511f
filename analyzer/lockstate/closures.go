package lockstate

// Closures and goroutines: what a closure called in place or deferred
// does to its caller's locks, the locks a body takes and leaves free, and
// go statements (a lock handed off to the goroutine).

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

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
	if eff.changes == nil {
		eff.changes = map[lockpath.Path]LockVal{}
	}
	conditionalChanges(eff.changes, exits, keep)
	a.litEffects[lit] = eff
	return eff
}

// conditionalChanges adds, for a lock a closure takes on some paths and
// leaves alone on others (lock := func() { if need { o.mu.Lock() } }),
// the change Maybe: after a call, the lock is held on some paths only.
// A declared function's effects stay exact (they become contracts); a
// local helper's are only what its caller learns.
func conditionalChanges(changes map[lockpath.Path]LockVal, exits []*State, keep func(lockpath.Path) bool) {
	for _, ex := range exits {
		for p, v := range lockEntries(ex.locks) {
			if _, done := changes[p]; done || !keep(p) {
				continue
			}
			if v.Mode == Maybe {
				changes[p] = LockVal{Mode: Maybe}
				continue
			}
			if !v.Mode.Held() {
				continue
			}
			for _, other := range exits {
				if other.Lock(p).Mode == Unknown {
					changes[p] = LockVal{Mode: Maybe}
				}
			}
		}
	}
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
		if fa.final && fa.rec != nil {
			fa.rec.GoStarts = append(fa.rec.GoStarts, &GoStart{Node: g, Lit: lit, State: s.snapshot()})
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

// isAsynchronousCallback reports whether a function runs its function
// argument in a goroutine of its own, like a go statement (later, for
// time.AfterFunc; at once, for errgroup.Group.Go and WaitGroup.Go): the
// closure starts with no locks held, and that is known, not assumed.
func isAsynchronousCallback(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	switch directives.FuncKey(fn) {
	case "time.AfterFunc", "context.AfterFunc",
		"sync.WaitGroup.Go", "golang.org/x/sync/errgroup.Group.Go", "golang.org/x/sync/errgroup.Group.TryGo":
		return true
	}
	return false
}

// isSynchronousCallback reports whether a function runs its function
// arguments before it returns, so closures passed to it inherit the caller's
// locks: the sort, slices, maps, strings and bytes helpers, sync.Once.Do,
// sync.Map.Range, the file tree walkers and the random shuffles.
func isSynchronousCallback(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sort", "slices", "maps", "strings", "bytes", "unicode", "container/heap", "container/list", "container/ring":
		return true
	}
	switch directives.FuncKey(fn) {
	case "sync.Once.Do", "sync.Map.Range", "path/filepath.Walk", "path/filepath.WalkDir", "io/fs.WalkDir",
		"math/rand.Shuffle", "math/rand.Rand.Shuffle", "math/rand/v2.Shuffle", "math/rand/v2.Rand.Shuffle":
		return true
	}
	return false
}
