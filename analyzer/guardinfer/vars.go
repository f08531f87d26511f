package guardinfer

import (
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Package-level variables given to sync/atomic (atomic.AddInt64(&hits,
// 1)) get the mixed atomic and plain check fields get. A variable is not
// an object a function allocates, so the concurrency context of its
// accesses is the goroutines that touch it: a plain access made after
// every goroutine its function started that touches the variable
// (directly, or through the package's functions it calls) is joined is
// after the join, and silent:
//
//	for i := 0; i < n; i++ { wg.Add(1); go func() { defer wg.Done(); work() }() } // work: atomic.AddInt64(&calls, 1)
//	wg.Wait()
//	fmt.Println(calls) // silent: every goroutine that adds to calls is joined

// checkVar runs the mixed check on a package-level variable's accesses,
// leaving out those made after the join of the goroutines that touch it.
func (r *inference) checkVar(v *types.Var, accs []*lockstate.Access) {
	reach := r.reaching(v)
	var kept []*lockstate.Access
	for _, a := range accs {
		if !a.Atomic && r.afterJoin(r.funcOf[a], a, v, reach) {
			continue
		}
		kept = append(kept, a)
	}
	r.atomicCheck(v, kept)
}

// reaching returns the package's functions that access v, or call one
// that does (their closures included).
func (r *inference) reaching(v *types.Var) map[*types.Func]bool {
	reach := map[*types.Func]bool{}
	for _, f := range r.ls.Funcs {
		for _, a := range f.Candidates {
			if a.Var.Origin() == v {
				reach[f.Obj.Origin()] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range r.ls.Funcs {
			if reach[f.Obj.Origin()] {
				continue
			}
			for _, call := range f.Calls {
				if call.Callee != nil && reach[call.Callee.Origin()] {
					reach[f.Obj.Origin()] = true
					changed = true
					break
				}
			}
		}
	}
	return reach
}

// afterJoin reports whether access a, in the body of declared function
// f, runs after every goroutine f started that touches the variable
// (reach: the functions that do) is joined, and at least one was.
func (r *inference) afterJoin(f *lockstate.Func, a *lockstate.Access, v *types.Var, reach map[*types.Func]bool) bool {
	if f == nil || f.Lit != nil || f.Context != lockstate.Declared || f.Decl.Body == nil {
		return false
	}
	dc := r.ctx.decl(f.Decl)
	dc.graph()
	joined := false
	for _, s := range dc.spawns {
		if !r.spawnTouches(s, v, reach) {
			continue
		}
		if s.Concurrent(a.Pos) || s.Node.End() > a.Pos {
			return false // running, or started later
		}
		joined = true
	}
	return joined
}

// spawnTouches reports whether a goroutine start runs code that touches
// the variable: its closure, or the function it starts.
func (r *inference) spawnTouches(s *goroutines.Spawn, v *types.Var, reach map[*types.Func]bool) bool {
	if s.Callee != nil {
		return reach[s.Callee.Origin()]
	}
	if s.Lit == nil {
		return true // unknown: assume it does
	}
	for _, f := range r.ls.Funcs {
		if f.Lit == nil || f.Lit.Pos() < s.Lit.Pos() || f.Lit.End() > s.Lit.End() {
			continue
		}
		for _, a := range f.Candidates {
			if a.Var.Origin() == v {
				return true
			}
		}
		for _, call := range f.Calls {
			if call.Callee != nil && reach[call.Callee.Origin()] {
				return true
			}
		}
	}
	return false
}
