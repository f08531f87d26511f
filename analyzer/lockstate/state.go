package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"sort"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// Mode is what is known about one lock instance at one program point.
type Mode uint8

const (
	// Unknown: nothing is known (the function's entry, for locks its contract
	// does not mention). An access that needs the lock is not covered.
	Unknown Mode = iota
	// NotHeld: known not to be held (released here, or the contract says so).
	NotHeld
	// Shared: held for reading (RLock).
	Shared
	// Exclusive: held for writing (Lock).
	Exclusive
	// Maybe: held on some paths to this point and not on others.
	Maybe
	// Either: held on every path, read-locked on some and locked on
	// others (RLock on one branch, Lock on the other). Enough for a read,
	// not for a write; either kind of unlock may follow.
	Either
)

func (m Mode) String() string {
	return [...]string{"not known to be held", "not held", "read-locked", "locked", "held on some paths only", "read-locked on some paths and locked on others"}[m]
}

// Held reports whether the lock is certainly held, in some mode.
func (m Mode) Held() bool { return m == Shared || m == Exclusive || m == Either }

// LockVal is the state of one lock instance: its mode and where that mode
// was established (the Lock call, or the release).
type LockVal struct {
	Mode Mode
	Site token.Pos
	Read bool // for NotHeld: released by RUnlock
}

// deferred is the net effect on one lock of the calls deferred so far,
// which run at return in the reverse order of their defer statements. Each
// lock effect sets the lock's value, so the one registered first on a path
// runs last and decides the value at return: mu.Unlock(); defer mu.Lock()
// returns with mu locked, and defer mu.Unlock(); ...; defer mu.Lock()
// returns with it free.
type deferred struct {
	mode Mode // the lock's mode once the deferred calls have run
	read bool
	site token.Pos
	// some: registered on some paths here only; on the others the lock
	// keeps the value it has at the return.
	some bool
}

func (d deferred) val() LockVal { return LockVal{Mode: d.mode, Site: d.site, Read: d.read} }

func deferredOf(v LockVal, some bool) deferred {
	return deferred{mode: v.Mode, read: v.Read, site: v.Site, some: some}
}

// State is the lock state at one program point. States are values: a
// state handed out is never changed. Copies are cheap: clone shares the
// maps, and a state copies a map the first time it writes to it (the own
// bits say which maps a state may write in place). A nil map is empty.
type State struct {
	locks    lockMap // persistent: shared between states, never written in place (lockmap.go)
	deferred map[lockpath.Path]deferred
	// defers are the deferred calls registered on some path here: true
	// when on every path, false when on some paths only (a defer inside an
	// if, or inside a loop seen after the loop).
	defers map[*ast.CallExpr]bool
	fresh  map[*types.Var]bool // locals holding objects not yet published
	// conds are the locals that hold the result of a call that takes
	// locks only when it succeeds (ok := mu.TryLock(), err :=
	// vfs.PrepareDeleteDentry(d)), as long as they are not assigned again:
	// a condition on one decides the locks on each branch.
	conds map[*types.Var]*condResult
	// same pairs the pointers a condition showed equal on this path (if
	// s == peer): the locks inside one are the locks inside the other, so
	// every change to one is made to both (see sameCond).
	same map[*types.Var]*types.Var
	own  uint8 // ownDeferred|ownDefers|...: maps not shared with another state
	// snap is a copy taken by snapshot and not mutated since: events
	// recorded at successive points share it until the state changes.
	// Every mutation goes through a method that drops it.
	snap *State
}

const (
	ownDeferred uint8 = 1 << iota
	ownDefers
	ownFresh
	ownConds
	ownSame
)

func newState() *State {
	return &State{own: ownDeferred | ownDefers | ownFresh | ownConds | ownSame}
}

// clone returns a copy of s. Both share s's maps until either writes.
func (s *State) clone() *State {
	s.own = 0
	return &State{locks: s.locks, deferred: s.deferred, defers: s.defers, fresh: s.fresh, conds: s.conds, same: s.same}
}

// writable returns m, or a private copy of it when it is shared (or nil),
// and marks it owned.
func writable[K comparable, V any](m map[K]V, own *uint8, bit uint8) map[K]V {
	if *own&bit != 0 && m != nil {
		return m
	}
	*own |= bit
	out := make(map[K]V, len(m)+1)
	maps.Copy(out, m)
	return out
}

func (s *State) deferredW() map[lockpath.Path]deferred {
	s.snap = nil
	s.deferred = writable(s.deferred, &s.own, ownDeferred)
	return s.deferred
}

func (s *State) defersW() map[*ast.CallExpr]bool {
	s.snap = nil
	s.defers = writable(s.defers, &s.own, ownDefers)
	return s.defers
}

func (s *State) freshW() map[*types.Var]bool {
	s.snap = nil
	s.fresh = writable(s.fresh, &s.own, ownFresh)
	return s.fresh
}

func (s *State) condsW() map[*types.Var]*condResult {
	s.snap = nil
	s.conds = writable(s.conds, &s.own, ownConds)
	return s.conds
}

// setCond records that local v holds the result of a call that takes
// locks only when it succeeds (nil: v holds something else now).
func (s *State) setCond(v *types.Var, c *condResult) {
	if c != nil {
		s.condsW()[v] = c
	} else if s.conds[v] != nil {
		delete(s.condsW(), v)
	}
}

// clearDefers forgets the registered defers (they have run).
func (s *State) clearDefers() {
	s.snap = nil
	s.deferred, s.defers = nil, nil
}

// Lock returns what is known about lock p.
func (s *State) Lock(p lockpath.Path) LockVal {
	if s == nil {
		return LockVal{}
	}
	v, _ := lockGet(s.locks, p)
	return v
}

// Fresh reports whether local v holds an object allocated in this function
// that has not escaped yet.
func (s *State) Fresh(v *types.Var) bool { return s != nil && s.fresh[v] }

// Held lists the locks certainly held, sorted by name, for messages.
func (s *State) Held() []lockpath.Path {
	var ps []lockpath.Path
	for p, v := range lockEntries(s.locks) {
		if v.Mode.Held() {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].String() < ps[j].String() })
	return ps
}

// Paths lists every lock the state mentions, sorted by name.
func (s *State) Paths() []lockpath.Path { return s.PathsWhere(nil) }

// PathsWhere lists the locks the state mentions whose value keep accepts
// (every lock for a nil keep), sorted by name. Filtering before sorting
// keeps a query for the few held locks cheap in a state that also
// remembers many released ones.
func (s *State) PathsWhere(keep func(LockVal) bool) []lockpath.Path {
	type named struct {
		p    lockpath.Path
		name string
	}
	var ns []named
	for p, v := range lockEntries(s.locks) {
		if keep == nil || keep(v) {
			ns = append(ns, named{p, p.String()}) // each name built once, not per comparison
		}
	}
	sort.Slice(ns, func(i, j int) bool {
		if a, b := ns[i].name, ns[j].name; a != b {
			return a < b
		}
		return ns[i].p.Root.Pos() < ns[j].p.Root.Pos()
	})
	ps := make([]lockpath.Path, len(ns))
	for i, n := range ns {
		ps[i] = n.p
	}
	return ps
}

// snapshot returns a copy of s for an event to keep. The copy is shared
// with every event recorded before s next changes, and must not be
// mutated.
func (s *State) snapshot() *State {
	if s.snap == nil {
		s.snap = s.clone()
	}
	return s.snap
}

func (s *State) set(p lockpath.Path, v LockVal) {
	s.snap = nil
	s.locks = lockSet(s.locks, p, v)
	if q, ok := s.twin(p); ok {
		s.locks = lockSet(s.locks, q, v)
	}
}

func (s *State) deleteLock(p lockpath.Path) {
	if _, ok := lockGet(s.locks, p); ok {
		s.snap = nil
		s.locks = lockDelete(s.locks, p)
	}
	if q, ok := s.twin(p); ok {
		if _, ok := lockGet(s.locks, q); ok {
			s.snap = nil
			s.locks = lockDelete(s.locks, q)
		}
	}
}

// setDeferred registers a deferred effect d on lock p. An effect
// registered earlier on every path runs after d and wins; one registered
// earlier on some paths only wins there, and d on the others.
func (s *State) setDeferred(p lockpath.Path, d deferred) {
	put := func(p lockpath.Path) {
		e, ok := s.deferred[p]
		switch {
		case !ok:
			s.deferredW()[p] = d
		case e.some:
			s.deferredW()[p] = deferredOf(joinVal(e.val(), d.val()), d.some)
		}
	}
	put(p)
	if q, ok := s.twin(p); ok {
		put(q)
	}
}

// twin returns p's other name when its root was shown equal to another
// pointer on this path (see same).
func (s *State) twin(p lockpath.Path) (lockpath.Path, bool) {
	if len(s.same) == 0 {
		return lockpath.Path{}, false
	}
	v, ok := p.Root.(*types.Var)
	if !ok || s.same[v] == nil {
		return lockpath.Path{}, false
	}
	return lockpath.Path{Root: s.same[v], Sel: p.Sel}, true
}

// setSame records that pointers a and b are equal on this path.
func (s *State) setSame(a, b *types.Var) {
	s.snap = nil
	s.same = writable(s.same, &s.own, ownSame)
	s.same[a], s.same[b] = b, a
}

func (s *State) addDefer(c *ast.CallExpr) { s.defersW()[c] = true }

// setFresh records whether local v holds an unpublished object.
func (s *State) setFresh(v *types.Var, fresh bool) {
	if fresh {
		s.freshW()[v] = true
	} else if s.fresh[v] {
		delete(s.freshW(), v)
	}
}

// equal reports whether two states are the same (fixpoint test).
func (s *State) equal(t *State) bool {
	return locksEqual(s.locks, t.locks) && maps.Equal(s.deferred, t.deferred) && maps.Equal(s.defers, t.defers) && maps.Equal(s.fresh, t.fresh) && maps.Equal(s.conds, t.conds) && maps.Equal(s.same, t.same)
}

// join merges the states of two paths that meet.
func join(a, b *State) *State {
	if a == nil {
		return b.clone()
	}
	if b == nil {
		return a.clone()
	}
	if a.equal(b) {
		return a.clone()
	}
	out := newState()
	if lockLen(a.locks)+lockLen(b.locks) > 0 {
		lb := newLockBuilder()
		for p, va := range lockEntries(a.locks) {
			vb, _ := lockGet(b.locks, p)
			lb.Set(p, joinVal(va, vb))
		}
		for p, vb := range lockEntries(b.locks) {
			if _, ok := lockGet(a.locks, p); !ok {
				lb.Set(p, joinVal(LockVal{}, vb))
			}
		}
		out.locks = lb.Map()
	}
	if len(a.deferred)+len(b.deferred) > 0 {
		out.deferred = map[lockpath.Path]deferred{}
	}
	for p, da := range a.deferred {
		db, ok := b.deferred[p]
		if ok {
			out.deferred[p] = deferredOf(joinVal(da.val(), db.val()), da.some || db.some)
		} else {
			da.some = true
			out.deferred[p] = da
		}
	}
	for p, db := range b.deferred {
		if _, ok := a.deferred[p]; !ok {
			db.some = true
			out.deferred[p] = db
		}
	}
	for v := range a.fresh {
		if b.fresh[v] {
			out.freshW()[v] = true
		}
	}
	joinDefers(out, a.defers, b.defers)
	joinDefers(out, b.defers, a.defers)
	for v, c := range a.conds {
		if b.conds[v] == c { // the same call's result on both paths
			out.condsW()[v] = c
		}
	}
	for v, w := range a.same {
		if b.same[v] == w {
			if out.same == nil {
				out.same = map[*types.Var]*types.Var{}
			}
			out.same[v] = w
		}
	}
	return out
}

func joinVal(a, b LockVal) LockVal {
	if a.Mode == b.Mode && a.Read == b.Read {
		// Keep the latest site, so the result does not depend on visit
		// order, and so that where a lock may have been taken again on
		// one path (a loop around sync.Cond.Wait), what follows the join
		// is in that later critical section, not the first.
		if b.Site != token.NoPos && (a.Site == token.NoPos || b.Site > a.Site) {
			a.Site = b.Site
		}
		return a
	}
	site := a.Site
	if site == token.NoPos || (b.Site != token.NoPos && b.Site < site) {
		site = b.Site
	}
	if a.Mode == NotHeld && b.Mode == NotHeld {
		return LockVal{Mode: NotHeld, Site: site}
	}
	if a.Mode.Held() && b.Mode.Held() {
		// Held on both paths, read-locked on one and locked on the other.
		return LockVal{Mode: Either, Site: site}
	}
	if !a.Mode.Held() && !b.Mode.Held() && a.Mode != Maybe && b.Mode != Maybe {
		// Not held on either path (not known, or released): the lock is
		// not held here, whatever paths led here.
		return LockVal{Mode: Unknown, Site: site}
	}
	return LockVal{Mode: Maybe, Site: site}
}

// joinDefers adds to out the deferred calls of a, each registered on
// every path only when it is on every path of both a and b.
func joinDefers(out *State, a, b map[*ast.CallExpr]bool) {
	for c, every := range a {
		if _, done := out.defers[c]; !done {
			out.defersW()[c] = every && b[c]
		}
	}
}

// runDefers returns the state after the deferred lock effects run. An
// effect registered on some paths only leaves the lock as it is on the
// others.
func (s *State) runDefers() *State {
	if len(s.deferred) == 0 && len(s.defers) == 0 {
		return s
	}
	out := s.clone()
	for p, d := range s.deferred {
		v := d.val()
		if d.some {
			v = joinVal(out.Lock(p), v)
		}
		out.set(p, v)
	}
	out.clearDefers()
	return out
}
