package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// TestJoinLattice checks the join of two paths' lock values on its own:
// it is commutative and idempotent, its results are the documented ones,
// and joining never loses "held" unless a path did not hold the lock.
func TestJoinLattice(t *testing.T) {
	modes := []Mode{Unknown, NotHeld, Shared, Exclusive, Maybe, Either}
	vals := []LockVal{}
	for _, m := range modes {
		vals = append(vals, LockVal{Mode: m, Site: token.Pos(10 + int(m))})
	}
	vals = append(vals, LockVal{Mode: NotHeld, Read: true, Site: 30})
	for _, a := range vals {
		if got := joinVal(a, a); got != a {
			t.Errorf("join(%v, %v) = %v, want it unchanged", a, a, got)
		}
		for _, b := range vals {
			ab, ba := joinVal(a, b), joinVal(b, a)
			if ab.Mode != ba.Mode {
				t.Errorf("join(%v, %v) = %v but join(%v, %v) = %v", a.Mode, b.Mode, ab.Mode, b.Mode, a.Mode, ba.Mode)
			}
			if ab.Mode.Held() != (a.Mode.Held() && b.Mode.Held()) {
				t.Errorf("join(%v, %v) = %v: held on the join must mean held on both", a.Mode, b.Mode, ab.Mode)
			}
			for _, c := range vals { // associative up to mode
				if x, y := joinVal(joinVal(a, b), c).Mode, joinVal(a, joinVal(b, c)).Mode; x != y {
					t.Errorf("join is not associative on %v, %v, %v: %v vs %v", a.Mode, b.Mode, c.Mode, x, y)
				}
			}
		}
	}
	for _, tc := range []struct {
		a, b, want Mode
	}{
		{Shared, Exclusive, Either}, // RLock on one branch, Lock on the other: a read is covered
		{Either, Shared, Either},
		{Exclusive, NotHeld, Maybe},
		{Shared, Unknown, Maybe},
		{NotHeld, Unknown, Unknown},
		{Either, NotHeld, Maybe},
		{Maybe, Exclusive, Maybe},
	} {
		if got := joinVal(LockVal{Mode: tc.a}, LockVal{Mode: tc.b}).Mode; got != tc.want {
			t.Errorf("join(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSnapshotCopyOnWrite checks that events recorded at successive points
// share one copy of the state until it changes, and that a change never
// reaches a copy already handed out.
func TestSnapshotCopyOnWrite(t *testing.T) {
	v := types.NewVar(token.NoPos, nil, "c", types.Typ[types.Int])
	p := lockpath.Path{Root: v, Sel: ".mu"}
	s := newState()
	s.set(p, LockVal{Mode: Exclusive, Site: 1})
	a, b := s.snapshot(), s.snapshot()
	if a != b {
		t.Fatal("two snapshots of an unchanged state are different copies")
	}
	for _, mutate := range []func(){
		func() { s.set(p, LockVal{Mode: NotHeld, Site: 2}) },
		func() { s.deleteLock(p) },
		func() { s.setDeferred(p, deferred{mode: NotHeld}) },
		func() { s.addDefer(&ast.CallExpr{}) },
		func() { s.setFresh(v, true) },
		func() { s.setFresh(v, false) },
	} {
		before := s.snapshot()
		want := before.clone()
		mutate()
		if !before.equal(want) {
			t.Fatal("a mutation changed a snapshot already taken")
		}
		if after := s.snapshot(); after == before {
			t.Fatal("a mutation did not drop the shared snapshot")
		}
	}
	if got := a.Lock(p).Mode; got != Exclusive {
		t.Errorf("first snapshot's lock is %v after later changes, want locked", got)
	}
}
