package locks_test

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

const src = `package p

import "sync"

// Wrap is a wrapper that gets its lock methods from an embedded mutex.
type Wrap struct{ sync.Mutex }

// Outer gets them two levels down.
type Outer struct{ Wrap }

// RWPtr embeds a pointer to a read-write mutex.
type RWPtr struct{ *sync.RWMutex }

// Own has lock methods of its own.
type Own struct{}

func (*Own) Lock()   {}
func (*Own) Unlock() {}

// ValOwn has them on a value receiver.
type ValOwn struct{}

func (ValOwn) Lock()   {}
func (ValOwn) Unlock() {}

// Override embeds a mutex but declares its own Lock and Unlock.
type Override struct{ sync.Mutex }

func (*Override) Lock()   {}
func (*Override) Unlock() {}

// OnlyLock has Lock but no Unlock.
type OnlyLock struct{}

func (*OnlyLock) Lock() {}

// BadSig has a Lock that returns something.
type BadSig struct{}

func (*BadSig) Lock() bool { return true }
func (*BadSig) Unlock()    {}

// RW is a read-write lock type with DowngradeLock.
type RW struct{}

func (*RW) Lock()          {}
func (*RW) Unlock()        {}
func (*RW) RLock()         {}
func (*RW) RUnlock()       {}
func (*RW) DowngradeLock() {}

// NotRW has DowngradeLock but no read side.
type NotRW struct{}

func (*NotRW) Lock()          {}
func (*NotRW) Unlock()        {}
func (*NotRW) DowngradeLock() {}

// Defined is a defined type over sync.Mutex: it has none of its methods.
type Defined sync.Mutex

type Alias = sync.Mutex

// PtrDefined is a defined pointer type: it has no methods, so a value of it
// is not a lock (p.Lock() needs a conversion to *sync.Mutex first).
type PtrDefined *sync.Mutex

// PtrAlias is only another name for *sync.Mutex.
type PtrAlias = *sync.Mutex

type RWLocker interface {
	sync.Locker
	RLock()
	RUnlock()
}

type Inner struct{ x int }

type WithLock struct {
	mu sync.Mutex
	f  int
	in Inner
	lk *LockedInner
}

type LockedInner struct {
	mu sync.RWMutex
	g  int
}

type Embedder struct {
	Inner
	LockedInner
	mu sync.Mutex
}

type NoLock struct {
	f  int
	in Inner
}

var (
	zm  sync.Mutex
	arw sync.RWMutex
	pm  *sync.Mutex
	n   int
	w   Wrap
	s   struct{ mu sync.Mutex }
	ll  sync.Locker
)

func calls(m *sync.Mutex, rw *sync.RWMutex, l sync.Locker, w *Wrap, o *Outer, g *RW, nr *NotRW, ol *OnlyLock, own *Own, f func()) {
	m.Lock()
	m.Unlock()
	m.TryLock()
	rw.RLock()
	rw.RUnlock()
	rw.TryRLock()
	l.Lock()
	w.Lock()
	o.Unlock()
	g.DowngradeLock()
	nr.DowngradeLock()
	ol.Lock()
	own.Lock()
	(m).Lock()
	(*sync.Mutex).Lock(m)
	f()
}

func fields(c *WithLock, e *Embedder, nl *NoLock) {
	_ = c.f
	_ = c.in.x
	_ = c.lk.g
	_ = e.x
	_ = e.g
	_ = e.mu
	_ = nl.in.x
	_ = nl.f
	_ = (c.in).x
}
`

type fixture struct{ *testsrc.Source }

func load(t *testing.T) *fixture { return &fixture{testsrc.Check(t, src)} }

func (f *fixture) typ(t *testing.T, name string) types.Type {
	t.Helper()
	obj := f.Pkg.Scope().Lookup(name)
	if obj == nil {
		t.Fatalf("no %s", name)
	}
	return obj.Type()
}

func (f *fixture) syncType(t *testing.T, name string) types.Type {
	t.Helper()
	for _, imp := range f.Pkg.Imports() {
		if imp.Path() == "sync" {
			return imp.Scope().Lookup(name).Type()
		}
	}
	t.Fatal("sync not imported")
	return nil
}

// exprs maps the expressions of the function named fn, printed as source,
// to the expressions.
func (f *fixture) exprs(t *testing.T, fn string) map[string]ast.Expr {
	t.Helper()
	out := map[string]ast.Expr{}
	for _, d := range f.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok {
					if _, seen := out[types.ExprString(e)]; !seen {
						out[types.ExprString(e)] = e
					}
				}
				return true
			})
			return out
		}
	}
	t.Fatalf("no function %s", fn)
	return nil
}

func TestIsLock(t *testing.T) {
	f := load(t)
	mutex, rwmutex := f.syncType(t, "Mutex"), f.syncType(t, "RWMutex")
	for _, tc := range []struct {
		name     string
		t        types.Type
		lock, rw bool
	}{
		{"sync.Mutex", mutex, true, false},
		{"sync.RWMutex", rwmutex, true, true},
		{"*sync.Mutex", types.NewPointer(mutex), true, false},
		{"*sync.RWMutex", types.NewPointer(rwmutex), true, true},
		{"sync.Locker", f.syncType(t, "Locker"), true, false},
		{"RWLocker", f.typ(t, "RWLocker"), true, true},
		{"Alias", f.typ(t, "Alias"), true, false},
		{"Wrap", f.typ(t, "Wrap"), true, false},
		{"*Wrap", types.NewPointer(f.typ(t, "Wrap")), true, false},
		{"Outer", f.typ(t, "Outer"), true, false},
		{"RWPtr", f.typ(t, "RWPtr"), true, true},
		{"Own", f.typ(t, "Own"), true, false},
		{"ValOwn", f.typ(t, "ValOwn"), true, false},
		{"Override", f.typ(t, "Override"), true, false},
		{"RW", f.typ(t, "RW"), true, true},
		{"int", types.Typ[types.Int], false, false},
		{"*int", types.NewPointer(types.Typ[types.Int]), false, false},
		{"OnlyLock", f.typ(t, "OnlyLock"), false, false},
		{"BadSig", f.typ(t, "BadSig"), false, false},
		{"Defined", f.typ(t, "Defined"), false, false},
		{"PtrDefined", f.typ(t, "PtrDefined"), false, false},
		{"*PtrDefined", types.NewPointer(f.typ(t, "PtrDefined")), false, false},
		{"PtrAlias", f.typ(t, "PtrAlias"), true, false},
		{"WithLock", f.typ(t, "WithLock"), false, false}, // a named lock field is not a promoted method
		{"error", types.Universe.Lookup("error").Type(), false, false},
		{"nil", nil, false, false},
	} {
		lock, rw := locks.IsLock(tc.t)
		if lock != tc.lock || rw != tc.rw {
			t.Errorf("IsLock(%s) = %v, %v; want %v, %v", tc.name, lock, rw, tc.lock, tc.rw)
		}
	}
}

func TestOpMethods(t *testing.T) {
	for _, tc := range []struct {
		op                 locks.Op
		name               string
		acquires, releases bool
	}{
		{locks.Lock, "Lock", true, false},
		{locks.RLock, "RLock", true, false},
		{locks.Unlock, "Unlock", false, true},
		{locks.RUnlock, "RUnlock", false, true},
		{locks.TryLock, "TryLock", false, false},
		{locks.TryRLock, "TryRLock", false, false},
		{locks.Downgrade, "DowngradeLock", false, false},
		{locks.NoOp, "?", false, false},
	} {
		if got := tc.op.String(); got != tc.name {
			t.Errorf("Op(%d).String() = %q, want %q", tc.op, got, tc.name)
		}
		if got := tc.op.Acquires(); got != tc.acquires {
			t.Errorf("%s.Acquires() = %v", tc.name, got)
		}
		if got := tc.op.Releases(); got != tc.releases {
			t.Errorf("%s.Releases() = %v", tc.name, got)
		}
		if tc.op != locks.NoOp && !locks.IsOpName(tc.name) {
			t.Errorf("IsOpName(%q) = false", tc.name)
		}
	}
	for _, name := range []string{"", "lock", "Wait", "Downgrade", "Do"} {
		if locks.IsOpName(name) {
			t.Errorf("IsOpName(%q) = true", name)
		}
	}
}

func TestAsCall(t *testing.T) {
	f := load(t)
	es := f.exprs(t, "calls")
	for _, tc := range []struct {
		call     string
		ok       bool
		op       locks.Op
		recv     string
		implicit []string
	}{
		{"m.Lock()", true, locks.Lock, "m", nil},
		{"m.Unlock()", true, locks.Unlock, "m", nil},
		{"m.TryLock()", true, locks.TryLock, "m", nil},
		{"rw.RLock()", true, locks.RLock, "rw", nil},
		{"rw.RUnlock()", true, locks.RUnlock, "rw", nil},
		{"rw.TryRLock()", true, locks.TryRLock, "rw", nil},
		{"l.Lock()", true, locks.Lock, "l", nil},
		{"w.Lock()", true, locks.Lock, "w", []string{"Mutex"}},
		{"o.Unlock()", true, locks.Unlock, "o", []string{"Wrap", "Mutex"}},
		{"g.DowngradeLock()", true, locks.Downgrade, "g", nil},
		{"own.Lock()", true, locks.Lock, "own", nil},
		{"(m).Lock()", true, locks.Lock, "(m)", nil},
		{"nr.DowngradeLock()", false, 0, "", nil}, // not a read-write lock
		{"ol.Lock()", false, 0, "", nil},          // not a lock
		{"(*sync.Mutex).Lock(m)", false, 0, "", nil},
		{"f()", false, 0, "", nil},
	} {
		call, ok := es[tc.call].(*ast.CallExpr)
		if !ok {
			t.Fatalf("no call %s", tc.call)
		}
		c, ok := locks.AsCall(f.Info, call)
		if ok != tc.ok {
			t.Errorf("AsCall(%s) ok = %v, want %v", tc.call, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if c.Op != tc.op {
			t.Errorf("AsCall(%s).Op = %s, want %s", tc.call, c.Op, tc.op)
		}
		if got := types.ExprString(c.Receiver); got != tc.recv {
			t.Errorf("AsCall(%s).Receiver = %s, want %s", tc.call, got, tc.recv)
		}
		if !slices.Equal(c.Implicit, tc.implicit) {
			t.Errorf("AsCall(%s).Implicit = %v, want %v", tc.call, c.Implicit, tc.implicit)
		}
	}
}

func TestEmbeddedPath(t *testing.T) {
	f := load(t)
	for _, tc := range []struct {
		name string
		t    types.Type
		want []string
	}{
		{"Wrap", f.typ(t, "Wrap"), []string{"Mutex"}},
		{"*Wrap", types.NewPointer(f.typ(t, "Wrap")), []string{"Mutex"}},
		{"Outer", f.typ(t, "Outer"), []string{"Wrap", "Mutex"}},
		{"RWPtr", f.typ(t, "RWPtr"), []string{"RWMutex"}},
		{"sync.Mutex", f.syncType(t, "Mutex"), nil},
		{"Own", f.typ(t, "Own"), nil},
		{"Override", f.typ(t, "Override"), nil}, // its own Lock shadows the promoted one
		{"sync.Locker", f.syncType(t, "Locker"), nil},
		{"int", types.Typ[types.Int], nil},
	} {
		if got := locks.EmbeddedPath(tc.t, f.Pkg); !slices.Equal(got, tc.want) {
			t.Errorf("EmbeddedPath(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestImplicitFields(t *testing.T) {
	f := load(t)
	es := f.exprs(t, "fields")
	for _, tc := range []struct {
		sel  string
		want []string
	}{
		{"c.f", nil},
		{"e.x", []string{"Inner"}},
		{"e.g", []string{"LockedInner"}},
		{"e.mu", nil}, // the outer mu shadows LockedInner.mu
	} {
		se, ok := es[tc.sel].(*ast.SelectorExpr)
		if !ok || f.Info.Selections[se] == nil {
			t.Fatalf("no selection %s", tc.sel)
		}
		if got := locks.ImplicitFields(f.Info.Selections[se]); !slices.Equal(got, tc.want) {
			t.Errorf("ImplicitFields(%s) = %v, want %v", tc.sel, got, tc.want)
		}
	}
}

func TestHasLockField(t *testing.T) {
	f := load(t)
	structOf := func(name string) *types.Struct { return f.typ(t, name).Underlying().(*types.Struct) }
	for _, tc := range []struct {
		name string
		st   *types.Struct
		want bool
	}{
		{"WithLock", structOf("WithLock"), true},       // named field
		{"Wrap", structOf("Wrap"), true},               // embedded
		{"RWPtr", structOf("RWPtr"), true},             // embedded pointer
		{"LockedInner", structOf("LockedInner"), true}, // RWMutex field
		{"NoLock", structOf("NoLock"), false},
		{"Inner", structOf("Inner"), false},
		{"Outer", structOf("Outer"), true}, // Wrap is itself a lock
		{"nil", nil, false},
	} {
		if got := locks.HasLockField(tc.st); got != tc.want {
			t.Errorf("HasLockField(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestHolderHasLock(t *testing.T) {
	f := load(t)
	es := f.exprs(t, "fields")
	for _, tc := range []struct {
		sel  string
		want bool
	}{
		{"c.f", true},     // WithLock has mu
		{"c.in.x", false}, // Inner has no lock
		{"c.lk.g", true},  // LockedInner has mu
		{"e.x", false},    // promoted from Inner, although Embedder has a lock
		{"e.g", true},     // promoted from LockedInner
		{"nl.f", false},
	} {
		se, ok := es[tc.sel].(*ast.SelectorExpr)
		if !ok || f.Info.Selections[se] == nil {
			t.Fatalf("no selection %s", tc.sel)
		}
		if got := locks.HolderHasLock(f.Info.Selections[se]); got != tc.want {
			t.Errorf("HolderHasLock(%s) = %v, want %v", tc.sel, got, tc.want)
		}
	}
}

func TestParentHasLock(t *testing.T) {
	f := load(t)
	es := f.exprs(t, "fields")
	for _, tc := range []struct {
		sel  string
		want bool
	}{
		{"c.in.x", true},   // in is a field of WithLock, which has a lock
		{"c.lk.g", true},   // through a pointer field
		{"(c.in).x", true}, // parentheses do not matter
		{"nl.in.x", false}, // NoLock has no lock
		{"c.f", false},     // no parent field: c is a variable
		{"e.x", false},     // e.x is one selection, not two
	} {
		se, ok := es[tc.sel].(*ast.SelectorExpr)
		if !ok {
			t.Fatalf("no selector %s", tc.sel)
		}
		if got := locks.ParentHasLock(f.Info, se); got != tc.want {
			t.Errorf("ParentHasLock(%s) = %v, want %v", tc.sel, got, tc.want)
		}
	}
}

func TestPackageLocks(t *testing.T) {
	f := load(t)
	var got []string
	for _, v := range locks.PackageLocks(f.Pkg) {
		got = append(got, v.Name())
	}
	// By name; n (int) and s (a struct holding a lock) are not locks.
	want := []string{"arw", "ll", "pm", "w", "zm"}
	if !slices.Equal(got, want) {
		t.Errorf("PackageLocks = %v, want %v", got, want)
	}
}

func TestMethodOf(t *testing.T) {
	f := load(t)
	method := func(recv types.Type, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, f.Pkg, name)
		fn, ok := obj.(*types.Func)
		if !ok {
			t.Fatalf("no method %s on %s", name, recv)
		}
		return fn
	}
	mutex := f.syncType(t, "Mutex")
	var syncPkg *types.Package
	for _, imp := range f.Pkg.Imports() {
		if imp.Path() == "sync" {
			syncPkg = imp
		}
	}
	cond := syncPkg.Scope().Lookup("Cond").Type()
	newCond := syncPkg.Scope().Lookup("NewCond").(*types.Func)
	for _, tc := range []struct {
		name         string
		fn           *types.Func
		pkgPath, typ string
		want         bool
	}{
		{"(*sync.Mutex).Lock", method(mutex, "Lock"), "sync", "Mutex", true},
		{"(*sync.Mutex).Lock as RWMutex", method(mutex, "Lock"), "sync", "RWMutex", false},
		{"(*sync.Mutex).Lock in another package", method(mutex, "Lock"), "p", "Mutex", false},
		{"(*sync.Cond).Wait", method(cond, "Wait"), "sync", "Cond", true},
		{"(ValOwn).Lock", method(f.typ(t, "ValOwn"), "Lock"), "p", "ValOwn", true},
		{"(*Own).Lock", method(f.typ(t, "Own"), "Lock"), "p", "Own", true},
		{"Wrap's promoted Lock", method(f.typ(t, "Wrap"), "Lock"), "p", "Wrap", false},
		{"sync.NewCond", newCond, "sync", "Cond", false}, // not a method
		{"nil", nil, "sync", "Mutex", false},
	} {
		if got := locks.MethodOf(tc.fn, tc.pkgPath, tc.typ); got != tc.want {
			t.Errorf("MethodOf(%s, %q, %q) = %v, want %v", tc.name, tc.pkgPath, tc.typ, got, tc.want)
		}
	}
}
