package lockpath_test

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

const src = `package p

import (
	"os"
	"sync"
)

type T struct {
	mu  sync.Mutex
	n   int
	in  Inner
	arr [4]Inner
	sl  []Inner
	m   map[string]*T
}

type Inner struct {
	mu sync.Mutex
	x  int
}

type Inner2 struct{ y int }

type Embeds struct {
	sync.Mutex
	Inner2
}

type H struct {
	p *T
	q *T
}

type Node struct {
	next *Node
	t    *T
}

var g T

var mu sync.Mutex

func get() *T { return nil }

func direct(c *T, k int) {
	c.mu.Lock()
	_ = c.in.mu
	_ = c.arr[2].x
	_ = c.arr[k].x
	_ = c.m["k"]
	_ = c.m[os.Args[0]]
	_ = (*c).n
	_ = &c.mu
	_ = get().mu
	_ = c.mu.Lock
	_ = os.Args
	_ = g.mu
	for i := 0; i < 2; i++ {
		_ = c.arr[i].x
	}
}

func emb(e *Embeds) {
	e.Lock()
	_ = e.y
}

func alias(c *T) {
	d := c
	d.mu.Lock()
}

func chained(c *T) {
	d := c
	e := d
	e.mu.Lock()
}

func aliasOfField(h *H, other *T) {
	d := h.p
	d.mu.Lock()
	h.q = other
}

func storeAfterLastUse(h *H, other *T) {
	d := h.p
	d.mu.Lock()
	d.mu.Unlock()
	h.p = other
}

func storeBeforeUse(h *H, other *T) {
	d := h.p
	h.p = other
	d.mu.Lock()
}

func storeInLoop(h *H, other *T) {
	d := h.p
	for i := 0; i < 2; i++ {
		d.mu.Lock()
		d.mu.Unlock()
		h.p = other
	}
}

func storeInRangeLoop(h *H, others []*T) {
	d := h.p
	for _, o := range others {
		d.mu.Lock()
		d.mu.Unlock()
		h.p = o
	}
}

func defInLoop(h *H, other *T) {
	for i := 0; i < 2; i++ {
		d := h.p
		d.mu.Lock()
		d.mu.Unlock()
		h.p = other
	}
}

func useInClosure(h *H, other *T) {
	d := h.p
	func() { d.mu.Lock() }()
	h.p = other
}

func useInDefer(h *H, other *T) {
	d := h.p
	d.mu.Lock()
	defer d.mu.Unlock()
	h.p = other
}

func deferNoStore(h *H) {
	d := h.p
	d.mu.Lock()
	defer d.mu.Unlock()
}

func withGoto(h *H, other *T) {
	d := h.p
	d.mu.Lock()
	h.p = other
	goto end
end:
	_ = 0
}

func storeThroughPrefix(n, other *Node) {
	d := n.next.t
	n.next = other
	d.mu.Lock()
}

func storeBelow(n *Node, other *T) {
	d := n.next
	n.next.t = other
	d.t.mu.Lock()
}

func copies(c *T) {
	mu := c.mu
	mu.Lock()
	v := *c
	v.mu.Lock()
	in := c.in
	in.mu.Lock()
	pm := &c.mu
	pm.Lock()
	n := c.n
	_ = n
}

func reassigned(c, other *T) {
	d := c
	d = other
	d.mu.Lock()
	e := c
	c = other
	e.mu.Lock()
}

func pkgLevel() {
	d := &g
	d.mu.Lock()
}

func two() (*T, error) { return nil, nil }

func defs(c *T, k int) {
	k = 2
	d := c
	var e = c
	var u int
	x, err := two()
	y, err2 := two()
	y = nil
	for i := range 3 {
		_ = i
	}
	j := 0
	j++
	a := 1
	_ = &a
	_, _, _, _, _, _, _, _, _ = d, e, u, x, err, y, err2, j, k
}

func classes(c *T, e *Embeds, s struct{ mu sync.Mutex }) {
	_ = c.mu
	_ = c.in.mu
	_ = c.arr[1].mu
	_ = c.sl[0].mu
	_ = c.m["k"].mu
	_ = e.Mutex
	_ = mu
	_ = g.mu
	_ = c.n
	_ = s.mu
	_ = c
}
`

type fixture struct{ *testsrc.Source }

func load(t *testing.T) *fixture { return &fixture{testsrc.Check(t, src)} }

func (f *fixture) fn(t *testing.T, name string) *ast.FuncDecl {
	t.Helper()
	for _, d := range f.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

func (f *fixture) resolver(t *testing.T, name string) (*lockpath.Resolver, *ast.FuncDecl) {
	t.Helper()
	fd := f.fn(t, name)
	return lockpath.NewResolver(f.Info, fd.Body), fd
}

// exprs returns the expressions under n that print as s, in source order,
// leaving out the field or method names of selectors (the mu of c.mu).
func exprs(n ast.Node, s string) []ast.Expr {
	var out []ast.Expr
	sels := map[*ast.Ident]bool{}
	ast.Inspect(n, func(m ast.Node) bool {
		if se, ok := m.(*ast.SelectorExpr); ok {
			sels[se.Sel] = true
		}
		if id, ok := m.(*ast.Ident); ok && sels[id] {
			return true
		}
		if e, ok := m.(ast.Expr); ok && types.ExprString(e) == s {
			out = append(out, e)
		}
		return true
	})
	return out
}

func expr(t *testing.T, n ast.Node, s string) ast.Expr {
	t.Helper()
	es := exprs(n, s)
	if len(es) == 0 {
		t.Fatalf("no expression %s", s)
	}
	return es[0]
}

// ident returns the first identifier named name under n: the defining one
// for a local, the parameter for a parameter.
func ident(t *testing.T, n ast.Node, name string) *ast.Ident {
	t.Helper()
	var out *ast.Ident
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && out == nil && id.Name == name {
			out = id
		}
		return out == nil
	})
	if out == nil {
		t.Fatalf("no identifier %s", name)
	}
	return out
}

func (f *fixture) varOf(t *testing.T, fd *ast.FuncDecl, name string) *types.Var {
	t.Helper()
	v, ok := f.Info.ObjectOf(ident(t, fd, name)).(*types.Var)
	if !ok {
		t.Fatalf("%s is not a variable", name)
	}
	return v
}

func TestPathMethodsOnZeroPath(t *testing.T) {
	var p lockpath.Path
	if p.Valid() {
		t.Error("zero Path is Valid")
	}
	if got := p.String(); got != "?" {
		t.Errorf("String() = %q, want ?", got)
	}
	if got := p.Local(nil); got != "?" {
		t.Errorf("Local() = %q, want ?", got)
	}
}

func TestPathPartsFieldAndOwner(t *testing.T) {
	root := types.NewVar(token.NoPos, nil, "c", types.Typ[types.Int])
	base := lockpath.Path{Root: root}
	for _, tc := range []struct {
		p     lockpath.Path
		str   string
		parts int
		owner string
	}{
		{base, "c", 0, "c"},
		{base.Field("mu"), "c.mu", 1, "c"},
		{base.Field("in", "mu"), "c.in.mu", 2, "c.in"},
		{lockpath.Path{Root: root, Sel: ".a[0]"}, "c.a[0]", 2, "c.a"},
		{lockpath.Path{Root: root, Sel: ".a[0].mu"}, "c.a[0].mu", 3, "c.a[0]"},
		{lockpath.Path{Root: root, Sel: ".m[k][1]"}, "c.m[k][1]", 3, "c.m[k]"},
	} {
		if !tc.p.Valid() {
			t.Errorf("%s: not Valid", tc.str)
		}
		if got := tc.p.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if got := tc.p.Parts(); got != tc.parts {
			t.Errorf("%s: Parts() = %d, want %d", tc.str, got, tc.parts)
		}
		if got := tc.p.Owner(); got.String() != tc.owner || got.Root != root {
			t.Errorf("%s: Owner() = %s, want %s", tc.str, got, tc.owner)
		}
	}
	if got := base.Field(); got != base {
		t.Errorf("Field() with no names = %s, want %s", got, base)
	}
}

func TestPathFieldDoesNotChangeReceiver(t *testing.T) {
	root := types.NewVar(token.NoPos, nil, "c", types.Typ[types.Int])
	p := lockpath.Path{Root: root}.Field("in")
	q := p.Field("mu")
	if p.String() != "c.in" || q.String() != "c.in.mu" {
		t.Errorf("p = %s, q = %s; want c.in, c.in.mu", p, q)
	}
}

func TestPathHasPrefix(t *testing.T) {
	c := types.NewVar(token.NoPos, nil, "c", types.Typ[types.Int])
	d := types.NewVar(token.NoPos, nil, "d", types.Typ[types.Int])
	P := func(root *types.Var, sel string) lockpath.Path { return lockpath.Path{Root: root, Sel: sel} }
	for _, tc := range []struct {
		p, q lockpath.Path
		want bool
	}{
		{P(c, ".mu"), P(c, ".mu"), true},
		{P(c, ".mu"), P(c, ""), true},
		{P(c, ".in.mu"), P(c, ".in"), true},
		{P(c, ".a[0]"), P(c, ".a"), true},
		{P(c, ".a[0].mu"), P(c, ".a[0]"), true},
		{P(c, ".mux"), P(c, ".mu"), false}, // a field name prefix is not a path prefix
		{P(c, ".in"), P(c, ".in.mu"), false},
		{P(c, ".mu"), P(d, ".mu"), false},
		{P(c, ".mu"), P(d, ""), false},
	} {
		if got := tc.p.HasPrefix(tc.q); got != tc.want {
			t.Errorf("%s.HasPrefix(%s) = %v, want %v", tc.p, tc.q, got, tc.want)
		}
	}
}

func TestPathStringQualifiesPackageLevelRoots(t *testing.T) {
	f := load(t)
	g := f.Pkg.Scope().Lookup("g")
	p := lockpath.Path{Root: g}.Field("mu")
	if got := p.String(); got != "p.g.mu" {
		t.Errorf("String() = %q, want p.g.mu", got)
	}
	if got := p.Local(f.Pkg); got != "g.mu" {
		t.Errorf("Local(own package) = %q, want g.mu", got)
	}
	other := types.NewPackage("example.com/q", "q")
	if got := p.Local(other); got != "p.g.mu" {
		t.Errorf("Local(other package) = %q, want p.g.mu", got)
	}
	// A local root is never qualified.
	_, fd := f.resolver(t, "alias")
	c := f.varOf(t, fd, "c")
	if got := (lockpath.Path{Root: c}).Field("mu").String(); got != "c.mu" {
		t.Errorf("local String() = %q, want c.mu", got)
	}
	if got := (lockpath.Path{Root: c}).Local(other); got != "c" {
		t.Errorf("local Local(other) = %q, want c", got)
	}
}

func TestResolverOf(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "direct")
	for _, tc := range []struct {
		expr string
		want string // "" for an invalid path
	}{
		{"c", "c"},
		{"c.mu", "c.mu"},
		{"c.in.mu", "c.in.mu"},
		{"c.arr[2].x", "c.arr[2].x"},
		{"c.arr[k].x", "c.arr[k].x"}, // a stable variable index
		{"c.arr[i].x", ""},           // a loop counter is not stable
		{`c.m["k"]`, `c.m["k"]`},     // a constant key
		{"c.m[os.Args[0]]", ""},      // a computed key
		{"(*c).n", "c.n"},            // dereference
		{"&c.mu", "c.mu"},            // address
		{"get().mu", ""},             // a call result
		{"c.mu.Lock", ""},            // a method value
		{"os.Args", "os.Args"},       // another package's variable
		{"g.mu", "p.g.mu"},           // this package's variable
	} {
		got := r.Of(expr(t, fd.Body, tc.expr))
		if tc.want == "" {
			if got.Valid() {
				t.Errorf("Of(%s) = %s, want invalid", tc.expr, got)
			}
			continue
		}
		if !got.Valid() || got.String() != tc.want {
			t.Errorf("Of(%s) = %s, want %s", tc.expr, got, tc.want)
		}
	}
}

func TestResolverOfMakesEmbeddedFieldsExplicit(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "emb")
	if got := r.Of(expr(t, fd.Body, "e.y")).String(); got != "e.Inner2.y" {
		t.Errorf("Of(e.y) = %s, want e.Inner2.y", got)
	}
	call := expr(t, fd.Body, "e.Lock()").(*ast.CallExpr)
	c, ok := locks.AsCall(f.Info, call)
	if !ok {
		t.Fatal("e.Lock() not recognised as a lock call")
	}
	if got := r.LockOf(c).String(); got != "e.Mutex" {
		t.Errorf("LockOf(e.Lock()) = %s, want e.Mutex", got)
	}
}

func TestResolverLockOf(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "direct")
	call := expr(t, fd.Body, "c.mu.Lock()").(*ast.CallExpr)
	c, ok := locks.AsCall(f.Info, call)
	if !ok {
		t.Fatal("c.mu.Lock() not recognised as a lock call")
	}
	if got := r.LockOf(c).String(); got != "c.mu" {
		t.Errorf("LockOf = %s, want c.mu", got)
	}
	bad := locks.Call{Op: locks.Lock, Receiver: expr(t, fd.Body, "get()")}
	if got := r.LockOf(bad); got.Valid() {
		t.Errorf("LockOf(get()...) = %s, want invalid", got)
	}
}

// TestResolverAliases covers the alias rule: a local defined from a path
// stands for it unless a store into the path can reach a use of the local.
func TestResolverAliases(t *testing.T) {
	f := load(t)
	for _, tc := range []struct {
		fn, expr, want string
	}{
		{"alias", "d.mu", "c.mu"},
		{"chained", "e.mu", "c.mu"},
		{"aliasOfField", "d.mu", "h.p.mu"},      // a store into another field
		{"storeAfterLastUse", "d.mu", "h.p.mu"}, // store after the last use
		{"storeBeforeUse", "d.mu", "d.mu"},      // store reaches the use
		{"storeInLoop", "d.mu", "d.mu"},         // loop around store and use
		{"storeInRangeLoop", "d.mu", "d.mu"},    // range loop around both
		{"defInLoop", "d.mu", "h.p.mu"},         // the loop redefines d
		{"useInClosure", "d.mu", "d.mu"},        // closure use may run late
		{"useInDefer", "d.mu", "d.mu"},          // deferred use runs at return
		{"deferNoStore", "d.mu", "h.p.mu"},      // without a store it stays
		{"withGoto", "d.mu", "d.mu"},            // goto: any store counts
		{"storeThroughPrefix", "d.mu", "d.mu"},  // store into n.next under n.next.t
		{"storeBelow", "d.t.mu", "n.next.t.mu"}, // store below n.next keeps d
		{"copies", "mu", "mu"},                  // a copy of a lock
		{"copies", "v.mu", "v.mu"},              // a copy of a struct with a lock
		{"copies", "in.mu", "in.mu"},            // a copy of a field with a lock
		{"copies", "pm", "c.mu"},                // a pointer to the lock
		{"copies", "n", "c.n"},                  // a lock-free value
		{"reassigned", "d.mu", "d.mu"},          // the local is reassigned
		{"reassigned", "e.mu", "e.mu"},          // the root is reassigned
		{"pkgLevel", "d.mu", "p.g.mu"},          // a package-level root
	} {
		t.Run(tc.fn+"/"+tc.expr, func(t *testing.T) {
			r, fd := f.resolver(t, tc.fn)
			es := exprs(fd.Body, tc.expr)
			if len(es) == 0 {
				t.Fatalf("no %s in %s", tc.expr, tc.fn)
			}
			for _, e := range es {
				if got := r.Of(e).String(); got != tc.want {
					t.Errorf("Of(%s) at %s = %s, want %s", tc.expr, f.Fset.Position(e.Pos()), got, tc.want)
				}
			}
		})
	}
}

func TestResolverStable(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "defs")
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"c", true},  // parameter never assigned
		{"k", false}, // parameter assigned
		{"d", true},  // d := c
		{"e", true},  // var e = c
		{"y", false}, // y, err2 := two(); y = nil
		{"i", false}, // range variable
		{"j", false}, // j++
		{"a", false}, // &a
	} {
		if got := r.Stable(f.varOf(t, fd, tc.name)); got != tc.want {
			t.Errorf("Stable(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
	g := f.Pkg.Scope().Lookup("g").(*types.Var)
	if r.Stable(g) {
		t.Error("Stable(package-level g) = true, want false")
	}
}

func TestResolverDef(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "defs")
	for _, tc := range []struct {
		name string
		want string // "" for nil
	}{
		{"d", "c"},
		{"e", "c"},
		{"c", ""}, // a parameter has no defining expression
		{"k", ""},
		{"u", ""},
		{"x", ""}, // one of several results
		{"j", ""}, // j := 0; j++
		{"a", ""}, // a := 1; &a
	} {
		id := ident(t, fd, tc.name)
		got := r.Def(id)
		gotOf := r.DefOf(f.varOf(t, fd, tc.name))
		if got != gotOf {
			t.Errorf("Def(%s) and DefOf disagree", tc.name)
		}
		if tc.want == "" {
			if got != nil {
				t.Errorf("Def(%s) = %s, want nil", tc.name, types.ExprString(got))
			}
			continue
		}
		if got == nil || types.ExprString(got) != tc.want {
			t.Errorf("Def(%s) = %v, want %s", tc.name, got, tc.want)
		}
	}
	if r.DefOf(nil) != nil {
		t.Error("DefOf(nil) != nil")
	}
	// Def of an identifier that is not a variable.
	if got := r.Def(ident(t, fd, "two")); got != nil {
		t.Errorf("Def(two) = %s, want nil", types.ExprString(got))
	}
}

func TestResolverTupleDef(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "defs")
	for _, tc := range []struct {
		name  string
		index int // -1 for none
	}{
		{"x", 0},
		{"err", 1},
		{"err2", 1},
		{"y", -1}, // assigned again
		{"d", -1}, // not a tuple definition
		{"c", -1},
	} {
		as, i := r.TupleDef(ident(t, fd, tc.name))
		if i != tc.index {
			t.Errorf("TupleDef(%s) index = %d, want %d", tc.name, i, tc.index)
		}
		if (as != nil) != (tc.index >= 0) {
			t.Errorf("TupleDef(%s) statement = %v, want one iff index >= 0", tc.name, as)
		}
		if as != nil {
			if len(as.Rhs) != 1 || types.ExprString(as.Rhs[0]) != "two()" {
				t.Errorf("TupleDef(%s) statement has Rhs %v, want two()", tc.name, as.Rhs)
			}
			if lhs := as.Lhs[i].(*ast.Ident); lhs.Name != tc.name {
				t.Errorf("TupleDef(%s): Lhs[%d] = %s", tc.name, i, lhs.Name)
			}
		}
	}
}

func TestResolverNilBody(t *testing.T) {
	f := load(t)
	fd := f.fn(t, "alias")
	r := lockpath.NewResolver(f.Info, nil)
	c := f.varOf(t, fd, "c")
	if !r.Stable(c) {
		t.Error("Stable(parameter) with no body = false")
	}
	if got := r.Of(ident(t, fd, "c")); got.Root != c || got.Sel != "" {
		t.Errorf("Of(c) = %s, want c", got)
	}
}

func TestClass(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "classes")
	for _, tc := range []struct {
		expr, key, display string // key "" for no class
	}{
		{"c.mu", "p.T.mu", "T.mu"},
		{"c.in.mu", "p.Inner.mu", "Inner.mu"},
		{"c.arr[1].mu", "p.Inner.mu", "Inner.mu"},
		{"c.sl[0].mu", "p.Inner.mu", "Inner.mu"},
		{`c.m["k"].mu`, "p.T.mu", "T.mu"},
		{"e.Mutex", "p.Embeds.Mutex", "Embeds.Mutex"},
		{"mu", "p.mu", "p.mu"},
		{"g.mu", "p.T.mu", "T.mu"},
		{"c.n", "", ""},
		{"s.mu", "", ""}, // the struct declaring the lock has no name
		{"c", "", ""},
	} {
		p := r.Of(expr(t, fd.Body, tc.expr))
		if !p.Valid() {
			t.Fatalf("Of(%s) invalid", tc.expr)
		}
		key, display, ok := lockpath.Class(p)
		if ok != (tc.key != "") || key != tc.key || display != tc.display {
			t.Errorf("Class(%s) = %q, %q, %v; want %q, %q", p, key, display, ok, tc.key, tc.display)
		}
		// LockVar finds the lock field whether or not its struct has a name.
		lv := lockpath.LockVar(p)
		if wantVar := tc.key != "" || tc.expr == "s.mu"; (lv != nil) != wantVar {
			t.Errorf("LockVar(%s) = %v, want a variable: %v", p, lv, wantVar)
		}
		if lv != nil {
			if lock, _ := locks.IsLock(lv.Type()); !lock {
				t.Errorf("LockVar(%s) = %v, not a lock", p, lv)
			}
		}
	}
	if _, _, ok := lockpath.Class(lockpath.Path{}); ok {
		t.Error("Class(zero Path) ok")
	}
	if lockpath.LockVar(lockpath.Path{}) != nil {
		t.Error("LockVar(zero Path) != nil")
	}
}

func TestLockVarIsTheDeclaringField(t *testing.T) {
	f := load(t)
	r, fd := f.resolver(t, "classes")
	inner := f.Pkg.Scope().Lookup("Inner").Type()
	want, _, _ := types.LookupFieldOrMethod(inner, false, f.Pkg, "mu")
	if got := lockpath.LockVar(r.Of(expr(t, fd.Body, "c.in.mu"))); got == nil || got != want {
		t.Errorf("LockVar(c.in.mu) = %v, want Inner's field %v", got, want)
	}
	mu := f.Pkg.Scope().Lookup("mu")
	if got := lockpath.LockVar(lockpath.Path{Root: mu}); got == nil || types.Object(got) != mu {
		t.Errorf("LockVar(mu) = %v, want the package variable", got)
	}
}

func TestClassFrom(t *testing.T) {
	f := load(t)
	T := f.Pkg.Scope().Lookup("T").Type()
	for _, tc := range []struct {
		t       types.Type
		segs    []string
		display string // "" for no class
	}{
		{T, []string{"mu"}, "T.mu"},
		{types.NewPointer(T), []string{"mu"}, "T.mu"},
		{T, []string{"in", "mu"}, "Inner.mu"},
		{T, []string{"arr", "[3]", "mu"}, "Inner.mu"},
		{T, []string{"m", "[k]", "in", "mu"}, "Inner.mu"},
		{T, []string{"n"}, ""},
		{T, []string{"nosuch"}, ""},
		{T, []string{"[0]"}, ""}, // T is not indexable
		{T, nil, ""},
	} {
		key, display, ok := lockpath.ClassFrom(tc.t, tc.segs)
		if ok != (tc.display != "") || display != tc.display {
			t.Errorf("ClassFrom(%s, %v) = %q, %v; want %q", tc.t, tc.segs, display, ok, tc.display)
		}
		if ok && key != "p."+tc.display {
			t.Errorf("ClassFrom(%s, %v) key = %q, want %q", tc.t, tc.segs, key, "p."+tc.display)
		}
	}
}

func TestCanonical(t *testing.T) {
	f := load(t)
	T := f.Pkg.Scope().Lookup("T").Type()
	rewrites := func(t types.Type) []lockpath.Rewrite {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if types.Identical(t, T) {
			return []lockpath.Rewrite{{From: ".in.mu", To: ".mu"}}
		}
		return nil
	}
	_, fd := f.resolver(t, "aliasOfField")
	h := f.varOf(t, fd, "h")
	c := f.varOf(t, f.fn(t, "alias"), "c")
	for _, tc := range []struct {
		p    lockpath.Path
		want string
	}{
		{lockpath.Path{Root: c, Sel: ".in.mu"}, "c.mu"},
		{lockpath.Path{Root: h, Sel: ".p.in.mu"}, "h.p.mu"},
		{lockpath.Path{Root: c, Sel: ".in.x"}, "c.in.x"},
		{lockpath.Path{Root: c, Sel: ".mu"}, "c.mu"},
	} {
		if got := lockpath.Canonical(tc.p, rewrites).String(); got != tc.want {
			t.Errorf("Canonical(%s) = %s, want %s", tc.p, got, tc.want)
		}
	}
	if got := lockpath.Canonical(lockpath.Path{}, rewrites); got.Valid() {
		t.Errorf("Canonical(zero) = %s, want invalid", got)
	}
}

// TestPathOwnerAndPartsWithQuotedKeys: a constant map key is one step,
// whatever dots or brackets are inside its quotes.
func TestPathOwnerAndPartsWithQuotedKeys(t *testing.T) {
	root := types.NewVar(token.NoPos, nil, "c", types.Typ[types.Int])
	for _, tc := range []struct {
		sel, owner string
		parts      int
	}{
		{`.locks["a.b"]`, `.locks`, 2},
		{`.locks["a]b"].mu`, `.locks["a]b"]`, 3},
		{`.m[k].mu`, `.m[k]`, 3},
		{`.mu`, ``, 1},
		{`.in.mu`, `.in`, 2},
		{`.locks["a\"].b"]`, `.locks`, 2},
	} {
		p := lockpath.Path{Root: root, Sel: tc.sel}
		if got := p.Owner().Sel; got != tc.owner {
			t.Errorf("Owner(c%s) = c%s, want c%s", tc.sel, got, tc.owner)
		}
		if got := p.Parts(); got != tc.parts {
			t.Errorf("Parts(c%s) = %d, want %d", tc.sel, got, tc.parts)
		}
	}
}
