package guardinfer

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Lock sets: the locks held at an access, named so that two functions
// can be compared, and what every caller of a helper holds.

// modeAt is how the lock at path (from the field's struct) is held at an
// access: in the function's own lock state, or, held by every caller of
// the method it is in, as shared (callers' modes are not tracked).
func (r *inference) modeAt(a *lockstate.Access, ref guardRef) lockstate.Mode {
	lock := r.lockOf(a, ref)
	if !lock.Valid() {
		return lockstate.NotHeld
	}
	if m := a.State.Lock(lock).Mode; m.Held() {
		return m
	}
	if f := r.funcOf[a]; f != nil && r.heldByCallers(f, lock, 0, false) {
		return lockstate.Shared
	}
	return lockstate.NotHeld
}

// racing keeps the misses that can run at once with a conflicting access
// of the field: by lock sets, as RacerD compares them, with the locks
// named. A miss is dropped when another lock is held there and at every
// access it conflicts with (every plain write, and for a write every
// access), exclusively on at least one side of each pair: a read of
// s.loops under targetMtx alone cannot race when every write of s.loops
// holds targetMtx as well as mtx. The other lock may be the object's own,
// a package-level one, its parent's, or any lock the functions hold: one
// reached from a variable of the same type at both accesses (le.mu of the
// lessor whose map holds the lease) is taken as the same lock, the
// abstraction RacerD makes by class.
func (r *inference) racing(misses, accs []*lockstate.Access, owner *types.Struct) []*lockstate.Access {
	plainWrite := func(a *lockstate.Access) bool { return a.Write && !a.Atomic }
	return r.racingBy(misses, accs, owner, func(a, b *lockstate.Access) bool { return plainWrite(a) || plainWrite(b) })
}

// racingBy is racing with the accesses that conflict given by conflict.
func (r *inference) racingBy(misses, accs []*lockstate.Access, owner *types.Struct, conflict func(a, b *lockstate.Access) bool) []*lockstate.Access {
	if len(misses) == 0 {
		return nil
	}
	cands := r.candidates(owner, accs)
	held := map[*lockstate.Access]map[string]lockstate.Mode{}
	modes := func(a *lockstate.Access) map[string]lockstate.Mode {
		if h, ok := held[a]; ok {
			return h
		}
		h := map[string]lockstate.Mode{}
		for i, c := range cands {
			if m := r.modeAt(a, c.ref); m.Held() {
				h[fmt.Sprint("guard ", i)] = m
			}
		}
		for k, m := range heldTyped(a.State) {
			h[k] = m
		}
		if f := r.funcOf[a]; f != nil {
			for k, m := range r.entryLocks(f, 0) {
				if !h[k].Held() {
					h[k] = m
				}
			}
		}
		held[a] = h
		return h
	}
	var out []*lockstate.Access
	for _, m := range misses {
		if !excludedByAnotherLock(m, accs, modes, conflict) && !r.beforeAllStarts(m, accs) && !r.afterClose(m, accs) {
			out = append(out, m)
		}
	}
	return out
}

// heldTyped is the locks held in s, by typedLock.
func heldTyped(s *lockstate.State) map[string]lockstate.Mode {
	h := map[string]lockstate.Mode{}
	for _, p := range s.Held() {
		if k := typedLock(p); k != "" {
			h[k] = s.Lock(p).Mode
		}
	}
	return h
}

// entryLocks is the entry lock set of the method f runs in, by typedLock:
// the locks every call of it holds (in the caller's own state, or at the
// caller's entry), for an unexported method only ever called; empty for
// anything else. lease.refresh, called only by lessor methods holding
// le.mu, runs under le.mu.
func (r *inference) entryLocks(f *lockstate.Func, depth int) map[string]lockstate.Mode {
	if depth <= maxCallerDepth && f.Lit != nil && f.Context == lockstate.Goroutine {
		return r.goEntryLocks(f, depth)
	}
	if depth > maxCallerDepth || f.Context != lockstate.Declared && f.Context != lockstate.Inline && f.Context != lockstate.Deferred {
		return nil
	}
	fn := f.Obj.Origin()
	if got, ok := r.entries[fn]; ok {
		return got // nil while being computed: recursion proves nothing
	}
	sites := r.callers[fn]
	if !r.calledOnly(fn) {
		return nil
	}
	r.entries[fn] = nil
	var set map[string]lockstate.Mode
	first := true
	for _, site := range sites {
		if strings.HasSuffix(r.pass.Fset.File(site.call.Node.Pos()).Name(), "_test.go") {
			continue // a test calls helpers as it likes, when nothing else runs
		}
		at := heldTyped(site.call.State)
		for k, m := range r.entryLocks(site.fn, depth+1) {
			if !at[k].Held() {
				at[k] = m
			}
		}
		if first {
			set, first = at, false
			continue
		}
		for k, m := range set {
			switch {
			case !at[k].Held():
				delete(set, k)
			case at[k] != m:
				set[k] = lockstate.Shared
			}
		}
	}
	r.entries[fn] = set
	return set
}

// typedLock names a held lock so that two functions holding the lock of
// objects of the same type name it alike: the package-level variable, or
// the named type that declares the lock field and the field's name
// (readTx.mu, whether reached as b.readTx.mu or t.backend.readTx.mu); ""
// for a path that leaves named struct types.
func typedLock(p lockpath.Path) string {
	v, ok := p.Root.(*types.Var)
	if !ok {
		return ""
	}
	if v.Parent() != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return "var " + v.Pkg().Path() + "." + v.Name() + p.Sel
	}
	if p.Sel == "" || strings.Contains(p.Sel, "[") {
		return ""
	}
	t := v.Type()
	key := ""
	for _, seg := range strings.Split(strings.TrimPrefix(p.Sel, "."), ".") {
		n, ok := types.Unalias(astq.Deref(t)).(*types.Named)
		if !ok {
			return ""
		}
		st, ok := astq.StructOf(n)
		if !ok {
			return ""
		}
		f := astq.Field(st, seg)
		if f == nil {
			return ""
		}
		key = "field " + types.TypeString(n.Origin(), nil) + "." + seg
		t = f.Type()
	}
	return key
}

// excludedByAnotherLock reports whether one lock is held at m and at every
// access that conflicts with m, exclusively at one of the two.
func excludedByAnotherLock(m *lockstate.Access, accs []*lockstate.Access, modes func(*lockstate.Access) map[string]lockstate.Mode, conflict func(a, b *lockstate.Access) bool) bool {
	mine := modes(m)
	keys := make([]string, 0, len(mine))
	for k := range mine {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		mm := mine[k]
		all := true
		for _, b := range accs {
			if b == m || !conflict(m, b) {
				continue // two reads do not conflict
			}
			bm := modes(b)[k]
			if !bm.Held() || mm != lockstate.Exclusive && bm != lockstate.Exclusive {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// candidate is a lock that may guard a field, with its name as a
// //guard:by argument.
type candidate struct {
	name string
	ref  guardRef
}

// candidates are the locks that may guard a field of owner: its own lock
// fields, the package-level locks, and the lock fields of the parent
// structs the field's object is reached through at accs (one set per
// parent struct type met).
func (r *inference) candidates(owner *types.Struct, accs []*lockstate.Access) []candidate {
	var cs []candidate
	for i := 0; i < owner.NumFields(); i++ {
		f := owner.Field(i)
		if lock, _ := locks.IsLock(f.Type()); lock {
			cs = append(cs, candidate{f.Name(), guardRef{path: lockPath(r.pass, owner, f.Name())}})
		}
	}
	for _, g := range r.globals {
		cs = append(cs, candidate{g.Name(), guardRef{global: g}})
	}
	seen := map[*types.Struct]bool{}
	for _, a := range accs {
		p, ok := r.parentOf(a)
		if !ok || seen[p.st] {
			continue
		}
		seen[p.st] = true
		for i := 0; i < p.st.NumFields(); i++ {
			f := p.st.Field(i)
			if lock, _ := locks.IsLock(f.Type()); lock {
				cs = append(cs, candidate{f.Name(), guardRef{path: lockPath(r.pass, p.st, f.Name()), parent: p.st}})
			}
		}
	}
	return cs
}

// goEntryLocks is the entry lock set of a goroutine's literal: the locks
// its starter holds at the go statement (its own or its callers', by
// entryLocks) and keeps until it joins the goroutine, which must be
// joined on every path before the starter returns and started once
// before that join. Nothing else that takes such a lock can run while the
// goroutine does: its accesses are inside the starter's critical section
// (lib/pq's Listener.resync, started and waited for under the l.lock its
// caller connect holds). heldByStarter gives the same credit to evidence.
func (r *inference) goEntryLocks(f *lockstate.Func, depth int) map[string]lockstate.Mode {
	if got, ok := r.goEntries[f.Lit]; ok {
		return got
	}
	if r.goEntries == nil {
		r.goEntries = map[*ast.FuncLit]map[string]lockstate.Mode{}
	}
	r.goEntries[f.Lit] = nil // recursion proves nothing
	gs, ok := r.goStartOf()[f.Lit]
	if !ok {
		return nil
	}
	sp := r.spawnOf(gs)
	if sp == nil || sp.OutlivesReturn() || sp.Repeats {
		return nil
	}
	set := heldTyped(gs.start.State)
	for k, m := range r.entryLocks(gs.starter, depth+1) {
		if !set[k].Held() {
			set[k] = m
		}
	}
	released, unknown := releasedWhileRunning(gs, sp)
	if unknown {
		return nil // a helper may release one meanwhile
	}
	for _, p := range released {
		delete(set, typedLock(p))
	}
	r.goEntries[f.Lit] = set
	return set
}
