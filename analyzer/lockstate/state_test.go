package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
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

// TestLockMapPersistent checks the persistent map behind a state's locks
// against a plain Go map: every version handed out keeps its contents
// while later versions set and delete, equality ignores how a version was
// built, and objects that share a position and a name stay distinct keys.
func TestLockMapPersistent(t *testing.T) {
	var paths []lockpath.Path
	for i := range 300 {
		// Many roots share NoPos and a name: only identity tells them apart.
		v := types.NewVar(token.NoPos, nil, "mu", types.Typ[types.Int])
		paths = append(paths, lockpath.Path{Root: v}, lockpath.Path{Root: v, Sel: ".f" + string(rune('a'+i%26))})
	}
	var m lockMap
	want := map[lockpath.Path]LockVal{}
	type version struct {
		m    lockMap
		want map[lockpath.Path]LockVal
	}
	var versions []version
	for i, p := range paths {
		val := LockVal{Mode: Mode(i % 6), Site: token.Pos(i)}
		m = lockSet(m, p, val)
		want[p] = val
		if i%3 == 2 {
			q := paths[i/2]
			m = lockDelete(m, q)
			delete(want, q)
		}
		if i%50 == 0 {
			versions = append(versions, version{m, maps.Clone(want)})
		}
	}
	versions = append(versions, version{m, want})
	for i, v := range versions {
		if lockLen(v.m) != len(v.want) {
			t.Fatalf("version %d has %d locks, want %d", i, lockLen(v.m), len(v.want))
		}
		for p, val := range v.want {
			if got, ok := lockGet(v.m, p); !ok || got != val {
				t.Fatalf("version %d: lock %v is %v (present %v), want %v", i, p, got, ok, val)
			}
		}
		n := 0
		for p, val := range lockEntries(v.m) {
			n++
			if v.want[p] != val {
				t.Fatalf("version %d iterates %v = %v, want %v", i, p, val, v.want[p])
			}
		}
		if n != len(v.want) {
			t.Fatalf("version %d iterates %d locks, want %d", i, n, len(v.want))
		}
	}
	// The same contents built in another order are equal; one value apart
	// they are not.
	var rebuilt lockMap
	for i := len(paths) - 1; i >= 0; i-- {
		if val, ok := want[paths[i]]; ok {
			rebuilt = lockSet(rebuilt, paths[i], val)
		}
	}
	if !locksEqual(m, rebuilt) {
		t.Error("two maps with the same locks and values are not equal")
	}
	for p, val := range want {
		val.Site++
		if locksEqual(m, lockSet(rebuilt, p, val)) {
			t.Error("maps that differ in one value are equal")
		}
		break
	}
	if lockDelete(lockSet(nil, paths[0], LockVal{}), paths[0]) != nil || lockLen(nil) != 0 {
		t.Error("an emptied map is not the empty (nil) map")
	}
}
