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

// deferred is a lock effect registered by defer that runs at return.
type deferred struct {
	mode Mode // NotHeld (unlock), Shared, Exclusive, or Maybe when paths disagree
	read bool
	site token.Pos
}

// State is the lock state at one program point. States are values: every
// mutation goes through a copy made by clone.
type State struct {
	locks    map[lockpath.Path]LockVal
	deferred map[lockpath.Path]deferred
	defers   map[*ast.CallExpr]bool // deferred calls registered on every path here
	fresh    map[*types.Var]bool    // locals holding objects not yet published
	// snap is a copy taken by snapshot and not mutated since: events
	// recorded at successive points share it until the state changes.
	// Every mutation goes through a method that drops it.
	snap *State
}

func newState() *State {
	return &State{locks: map[lockpath.Path]LockVal{}, deferred: map[lockpath.Path]deferred{}, defers: map[*ast.CallExpr]bool{}, fresh: map[*types.Var]bool{}}
}

func (s *State) clone() *State {
	return &State{locks: maps.Clone(s.locks), deferred: maps.Clone(s.deferred), defers: maps.Clone(s.defers), fresh: maps.Clone(s.fresh)}
}

// Lock returns what is known about lock p.
func (s *State) Lock(p lockpath.Path) LockVal {
	if s == nil {
		return LockVal{}
	}
	return s.locks[p]
}

// Fresh reports whether local v holds an object allocated in this function
// that has not escaped yet.
func (s *State) Fresh(v *types.Var) bool { return s != nil && s.fresh[v] }

// Held lists the locks certainly held, sorted by name, for messages.
func (s *State) Held() []lockpath.Path {
	var ps []lockpath.Path
	for p, v := range s.locks {
		if v.Mode.Held() {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].String() < ps[j].String() })
	return ps
}

// Paths lists every lock the state mentions, sorted by name.
func (s *State) Paths() []lockpath.Path {
	var ps []lockpath.Path
	for p := range s.locks {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if a, b := ps[i].String(), ps[j].String(); a != b {
			return a < b
		}
		return ps[i].Root.Pos() < ps[j].Root.Pos()
	})
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

func (s *State) set(p lockpath.Path, v LockVal) { s.snap = nil; s.locks[p] = v }

func (s *State) deleteLock(p lockpath.Path) { s.snap = nil; delete(s.locks, p) }

func (s *State) setDeferred(p lockpath.Path, d deferred) { s.snap = nil; s.deferred[p] = d }

func (s *State) addDefer(c *ast.CallExpr) { s.snap = nil; s.defers[c] = true }

// setFresh records whether local v holds an unpublished object.
func (s *State) setFresh(v *types.Var, fresh bool) {
	s.snap = nil
	if fresh {
		s.fresh[v] = true
	} else {
		delete(s.fresh, v)
	}
}

// equal reports whether two states are the same (fixpoint test).
func (s *State) equal(t *State) bool {
	return maps.Equal(s.locks, t.locks) && maps.Equal(s.deferred, t.deferred) && maps.Equal(s.defers, t.defers) && maps.Equal(s.fresh, t.fresh)
}

// join merges the states of two paths that meet.
func join(a, b *State) *State {
	if a == nil {
		return b.clone()
	}
	if b == nil {
		return a.clone()
	}
	out := newState()
	for p, va := range a.locks {
		out.locks[p] = joinVal(va, b.locks[p])
	}
	for p, vb := range b.locks {
		if _, ok := a.locks[p]; !ok {
			out.locks[p] = joinVal(LockVal{}, vb)
		}
	}
	for p, da := range a.deferred {
		db, ok := b.deferred[p]
		if ok && da.mode == db.mode && da.read == db.read {
			da.site = min(da.site, db.site)
			out.deferred[p] = da
		} else {
			out.deferred[p] = deferred{mode: Maybe, site: da.site}
		}
	}
	for p, db := range b.deferred {
		if _, ok := a.deferred[p]; !ok {
			out.deferred[p] = deferred{mode: Maybe, site: db.site}
		}
	}
	for v := range a.fresh {
		if b.fresh[v] {
			out.fresh[v] = true
		}
	}
	for c := range a.defers {
		if b.defers[c] {
			out.defers[c] = true
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

// runDefers returns the state after the deferred lock effects run.
func (s *State) runDefers() *State {
	if len(s.deferred) == 0 && len(s.defers) == 0 {
		return s
	}
	out := s.clone()
	for p, d := range s.deferred {
		switch d.mode {
		case Maybe:
			if out.locks[p].Mode != NotHeld {
				out.locks[p] = LockVal{Mode: Maybe, Site: d.site}
			}
		default:
			out.locks[p] = LockVal{Mode: d.mode, Site: d.site, Read: d.read}
		}
	}
	out.deferred = map[lockpath.Path]deferred{}
	out.defers = map[*ast.CallExpr]bool{}
	return out
}
