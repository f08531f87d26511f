package guardinfer

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Goroutines joined under their starter's lock: the starter holds m.mu at
// the go statement and keeps it until it has joined the goroutine
// (mu.Lock(); defer mu.Unlock(); ... go func() { defer wg.Done(); read
// m.f }(); ... wg.Wait()). The goroutine does not hold m.mu, but nothing
// else that takes m.mu runs while it does, so its accesses through the
// starter's m are ordered with every access made under m.mu.

// goStart is a go statement of a function literal, with the function
// (declaration or closure) that runs it.
type goStart struct {
	starter *lockstate.Func
	start   *lockstate.GoStart
}

// heldByStarter reports whether lock, on an object the goroutine a runs
// in shares with its starter, is held by the starter from the go
// statement until it joins the goroutine: read-locked at least for a
// read, locked for a write, and for a write the goroutine is not started
// again before the join (instances of it would not be ordered among
// themselves).
func (r *inference) heldByStarter(a *lockstate.Access, lock lockpath.Path) bool {
	f := r.funcOf[a]
	if f == nil || f.Lit == nil || f.Context != lockstate.Goroutine || !lock.Valid() {
		return false
	}
	gs, ok := r.goStartOf()[f.Lit]
	if !ok {
		return false
	}
	switch gs.start.State.Lock(lock).Mode {
	case lockstate.Exclusive:
	case lockstate.Shared, lockstate.Either:
		if a.Write {
			return false
		}
	default:
		return false
	}
	sp := r.spawnOf(gs)
	if sp == nil || sp.OutlivesReturn() || (a.Write && sp.Repeats) {
		return false
	}
	released, unknown := releasedWhileRunning(gs, sp)
	return !unknown && !slices.Contains(released, lock)
}

// releasedWhileRunning returns the locks the starter releases while the
// goroutine sp may run, and unknown when a helper it calls meanwhile may
// release one (its contract or inferred effect releases a lock).
func releasedWhileRunning(gs goStart, sp *goroutines.Spawn) (released []lockpath.Path, unknown bool) {
	for _, op := range gs.starter.LockOps {
		switch op.Op {
		case locks.Unlock, locks.RUnlock, locks.Downgrade:
			if sp.Concurrent(op.Node.Pos()) {
				released = append(released, op.Lock)
			}
		}
	}
	for _, c := range gs.starter.Calls {
		if (releases(c.Contract) || releases(c.Effects)) && sp.Concurrent(c.Node.Pos()) {
			return released, true
		}
	}
	return released, false
}

// releases reports whether a contract or an inferred effect releases a
// lock its caller holds.
func releases(c *directives.Contract) bool {
	return c != nil && len(c.Releases)+len(c.RReleases)+len(c.Downgrades) > 0
}

// goStartOf indexes the package's go statements of function literals by
// literal.
func (r *inference) goStartOf() map[*ast.FuncLit]goStart {
	if r.goStarts == nil {
		r.goStarts = map[*ast.FuncLit]goStart{}
		for _, f := range r.ls.Funcs {
			for _, gs := range f.GoStarts {
				r.goStarts[gs.Lit] = goStart{starter: f, start: gs}
			}
		}
	}
	return r.goStarts
}

// spawnOf is the goroutines package's view of a go statement: its
// concurrent region and joins in the starter's body.
func (r *inference) spawnOf(gs goStart) *goroutines.Spawn {
	if gs.starter.Decl == nil {
		return nil
	}
	if r.spawns == nil {
		r.spawns = map[*ast.FuncDecl][]*goroutines.Body{}
	}
	bodies, ok := r.spawns[gs.starter.Decl]
	if !ok {
		bodies = goroutines.FindWith(r.pass.TypesInfo, gs.starter.Decl, r.declOf)
		r.spawns[gs.starter.Decl] = bodies
	}
	for _, b := range bodies {
		if b.Lit != gs.starter.Lit {
			continue
		}
		for _, sp := range b.Spawns {
			if sp.Node == ast.Node(gs.start.Node) {
				return sp
			}
		}
	}
	return nil
}

// confined reports whether every access of a field is made in one
// unexported method that only one goroutine per object runs: its one
// reference is a call in a goroutine literal, not started again before
// it ends, on an object its starter allocated (go func() {
// wps.recvLoop() }() in the function that made wps). Such a field never
// leaves that goroutine, whatever its comment says guards it.
func (r *inference) confined(accs []*lockstate.Access) bool {
	var fn *types.Func
	for _, a := range accs {
		f := r.funcOf[a]
		if f == nil || f.Lit != nil || f.Obj == nil {
			return false
		}
		if fn == nil {
			fn = f.Obj.Origin()
		}
		if f.Obj.Origin() != fn {
			return false
		}
	}
	if fn == nil || fn.Exported() || r.refs[fn] != 1 || r.calls[fn] != 1 {
		return false
	}
	site := r.callers[fn][0]
	if site.fn.Lit == nil || site.fn.Context != lockstate.Goroutine {
		return false
	}
	gs, ok := r.goStartOf()[site.fn.Lit]
	if !ok || gs.starter.Decl == nil || gs.starter.Lit != nil {
		return false
	}
	sp := r.spawnOf(gs)
	if sp == nil || sp.Repeats {
		return false
	}
	x, ok := site.recv()
	if !ok {
		return false
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := r.pass.TypesInfo.Uses[id].(*types.Var)
	return v != nil && r.ctx.decl(gs.starter.Decl).allocs[v]
}
