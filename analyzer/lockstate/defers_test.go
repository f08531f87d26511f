package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// TestDeferredLastRegisteredRunsFirst checks the net effect of deferred
// lock operations on their own: they run at return in the reverse order
// of registration, so the one registered first decides the lock's value;
// one registered on some paths only leaves the lock as it is on the
// others.
func TestDeferredLastRegisteredRunsFirst(t *testing.T) {
	p := lockpath.Path{Root: types.NewVar(token.NoPos, nil, "mu", types.Typ[types.Int])}
	held := LockVal{Mode: Exclusive, Site: 1}
	free := LockVal{Mode: NotHeld, Site: 2}
	at := func(s *State) Mode { return s.runDefers().Lock(p).Mode }
	state := func(v LockVal, ops ...LockVal) *State {
		s := newState()
		s.set(p, v)
		for _, op := range ops {
			s.setDeferred(p, deferredOp(op))
		}
		return s
	}
	for _, tc := range []struct {
		name string
		s    *State
		want Mode
	}{
		{"mu.Unlock(); defer mu.Lock()", state(free, held), Exclusive},
		{"defer mu.Unlock(); ...; defer mu.Lock()", state(free, free, held), NotHeld},
		{"defer mu.Lock(); defer mu.Unlock()", state(held, held, free), Exclusive},
		{"defer mu.RLock(); defer mu.RUnlock()", state(held, LockVal{Mode: Shared, Site: 3}, LockVal{Mode: NotHeld, Read: true}), Shared},
		// if b { defer mu.Lock() } after mu.Unlock(): held on some paths.
		{"conditional relock", join(state(free, held), state(free)), Maybe},
		// if b { defer mu.Unlock() } with mu held: held on some paths.
		{"conditional unlock", join(state(held, free), state(held)), Maybe},
		// if b { defer mu.Unlock() }; defer mu.Lock(): the unlock, where
		// registered, runs last; elsewhere the lock does.
		{"conditional unlock, then relock", func() *State {
			s := join(state(held, free), state(held))
			s.setDeferred(p, deferredOp(held))
			return s
		}(), Maybe},
		// defer mu.Lock() on both branches: held whatever the branch.
		{"relock on both branches", join(state(free, held), state(held, held)), Exclusive},
	} {
		if got := at(tc.s); got != tc.want {
			t.Errorf("%s: %v at return, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDefersJoin checks that a deferred call registered on one path only
// stays registered after a join, as registered on some paths only.
func TestDefersJoin(t *testing.T) {
	c1, c2 := &ast.CallExpr{}, &ast.CallExpr{}
	a, b := newState(), newState()
	a.addDefer(c1)
	a.addDefer(c2)
	b.addDefer(c2)
	j := join(a, b)
	if every, ok := j.defers[c1]; !ok || every {
		t.Errorf("defer on one path: registered %v, on every path %v; want registered on some paths only", ok, every)
	}
	if every := j.defers[c2]; !every {
		t.Errorf("defer on both paths: not on every path after the join")
	}
	if !join(j, b).equal(j) {
		t.Errorf("join is not idempotent on registered defers")
	}
}
