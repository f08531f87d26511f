package summaries_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/summaries"
)

// summary is a test fact: the name of the function it summarises, and
// what the summary saw of the calls it made while being computed.
type summary struct {
	Name  string
	Calls []*summary
}

func (*summary) AFact() {}

func (s *summary) String() string { return fmt.Sprintf("summary(%s)", s.Name) }

func newFunc(pkg *types.Package, name string) *types.Func {
	return types.NewFunc(token.NoPos, pkg, name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
}

// imports records ImportObjectFact calls and answers from facts.
type imports struct {
	facts map[types.Object]*summary
	calls map[types.Object]int
}

func (im *imports) pass(pkg *types.Package) *analysis.Pass {
	return &analysis.Pass{
		Pkg: pkg,
		ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
			im.calls[obj]++
			f, ok := im.facts[obj]
			if !ok {
				return false
			}
			*fact.(*summary) = *f
			return true
		},
	}
}

func newImports() *imports {
	return &imports{facts: map[types.Object]*summary{}, calls: map[types.Object]int{}}
}

func TestOfComputesOnce(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	a, b := newFunc(pkg, "a"), newFunc(pkg, "b")
	computed := map[*types.Func]int{}
	m := summaries.New(newImports().pass(pkg), func(fn *types.Func) *summary {
		computed[fn]++
		return &summary{Name: fn.Name()}
	})
	first := m.Of(a)
	if first == nil || first.Name != "a" {
		t.Fatalf("Of(a) = %v, want summary(a)", first)
	}
	if again := m.Of(a); again != first {
		t.Errorf("second Of(a) = %p, want the memoised %p", again, first)
	}
	if sb := m.Of(b); sb == nil || sb.Name != "b" {
		t.Errorf("Of(b) = %v, want summary(b)", sb)
	}
	if computed[a] != 1 || computed[b] != 1 {
		t.Errorf("compute ran %d times for a, %d for b; want once each", computed[a], computed[b])
	}
}

func TestOfMemoisesNilSummary(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	a := newFunc(pkg, "a")
	n := 0
	m := summaries.New(newImports().pass(pkg), func(*types.Func) *summary { n++; return nil })
	first, second := m.Of(a), m.Of(a) // the second call must come from the memo
	if first != nil || second != nil {
		t.Error("Of(a) != nil")
	}
	if n != 1 {
		t.Errorf("compute ran %d times, want once", n)
	}
}

func TestOfNil(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	m := summaries.New(newImports().pass(pkg), func(*types.Func) *summary {
		t.Error("compute called for a nil function")
		return &summary{}
	})
	if got := m.Of(nil); got != nil {
		t.Errorf("Of(nil) = %v, want nil", got)
	}
}

func TestOfCutsRecursion(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	a, b, self := newFunc(pkg, "a"), newFunc(pkg, "b"), newFunc(pkg, "self")
	callees := map[*types.Func][]*types.Func{a: {b}, b: {a}, self: {self}}
	computed := map[*types.Func]int{}
	var m *summaries.Memo[summary, *summary]
	m = summaries.New(newImports().pass(pkg), func(fn *types.Func) *summary {
		computed[fn]++
		s := &summary{Name: fn.Name()}
		for _, c := range callees[fn] {
			s.Calls = append(s.Calls, m.Of(c))
		}
		return s
	})

	// self calls itself: the inner call sees nil.
	s := m.Of(self)
	if s == nil || len(s.Calls) != 1 || s.Calls[0] != nil {
		t.Errorf("Of(self) = %+v, want one nil call", s)
	}
	if m.Of(self) != s {
		t.Error("Of(self) not memoised after the recursion")
	}

	// a calls b calls a: b's call to a sees nil, a's call to b sees b.
	sa := m.Of(a)
	if sa == nil || len(sa.Calls) != 1 || sa.Calls[0] == nil || sa.Calls[0].Name != "b" {
		t.Fatalf("Of(a) = %+v, want a call to summary(b)", sa)
	}
	sb := sa.Calls[0]
	if len(sb.Calls) != 1 || sb.Calls[0] != nil {
		t.Errorf("b's call back to a saw %v, want nil", sb.Calls)
	}
	if m.Of(b) != sb {
		t.Error("Of(b) is not the summary computed inside a")
	}
	if computed[a] != 1 || computed[b] != 1 || computed[self] != 1 {
		t.Errorf("compute counts %v, want one each", computed)
	}
}

func TestOfImportsFactForOtherPackage(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	other := types.NewPackage("example.com/q", "q")
	withFact, noFact := newFunc(other, "WithFact"), newFunc(other, "NoFact")
	im := newImports()
	im.facts[withFact] = &summary{Name: "from fact"}
	m := summaries.New(im.pass(pkg), func(fn *types.Func) *summary {
		t.Errorf("compute called for %s of another package", fn)
		return &summary{}
	})
	got := m.Of(withFact)
	if got == nil || got.Name != "from fact" {
		t.Errorf("Of(WithFact) = %v, want the imported fact", got)
	}
	if m.Of(withFact) != got {
		t.Error("Of(WithFact) not memoised")
	}
	if got := m.Of(noFact); got != nil {
		t.Errorf("Of(NoFact) = %v, want nil", got)
	}
	m.Of(noFact)
	if im.calls[withFact] != 1 || im.calls[noFact] != 1 {
		t.Errorf("ImportObjectFact called %d times for WithFact, %d for NoFact; want once each", im.calls[withFact], im.calls[noFact])
	}
}

func TestOfUsesGenericOrigin(t *testing.T) {
	const src = `package p

type L[T any] struct{}

func (L[T]) M() {}

var (
	_ L[int]
	_ L[string]
)
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	origin := pkg.Scope().Lookup("L").Type().(*types.Named).Method(0)
	var insts []*types.Func
	for e, tv := range info.Types {
		if _, ok := e.(*ast.IndexExpr); ok {
			if n, ok := tv.Type.(*types.Named); ok && n.Method(0) != origin { // not the receiver L[T]
				insts = append(insts, n.Method(0))
			}
		}
	}
	if len(insts) != 2 || insts[0] == insts[1] || insts[0] == origin || insts[0].Origin() != origin {
		t.Fatalf("instances %v, want two distinct instances of %v", insts, origin)
	}
	var seen []*types.Func
	m := summaries.New(newImports().pass(pkg), func(fn *types.Func) *summary {
		seen = append(seen, fn)
		return &summary{Name: fn.Name()}
	})
	s := m.Of(insts[0])
	if s == nil || m.Of(insts[1]) != s || m.Of(origin) != s {
		t.Error("the instances and the generic method have different summaries")
	}
	if len(seen) != 1 || seen[0] != origin {
		t.Errorf("compute saw %v, want only the generic method", seen)
	}
}

// TestExportInSourceOrder: Export visits the functions by file name and
// offset, whatever order the files were added to the FileSet in, and
// exports the facts that fact returns, none where it returns nil.
func TestExportInSourceOrder(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 100) // added first, but after a.go by name
	a := fset.AddFile("a.go", -1, 100)
	pkg := types.NewPackage("example.com/p", "p")
	at := func(f *token.File, off int, name string) *types.Func {
		return types.NewFunc(f.Pos(off), pkg, name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
	}
	fns := map[*types.Func]bool{at(b, 10, "b10"): true, at(a, 50, "a50"): true, at(a, 5, "a5"): true, at(b, 2, "b2"): true}
	var visited, exported []string
	pass := &analysis.Pass{Fset: fset, Pkg: pkg, ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
		exported = append(exported, fact.(*summary).Name)
	}}
	summaries.Export(pass, fns, func(fn *types.Func) analysis.Fact {
		visited = append(visited, fn.Name())
		if fn.Name() == "a50" {
			return nil
		}
		return &summary{Name: fn.Name()}
	})
	if got := fmt.Sprint(visited); got != "[a5 a50 b2 b10]" {
		t.Errorf("visited %s, want [a5 a50 b2 b10]", got)
	}
	if got := fmt.Sprint(exported); got != "[a5 b2 b10]" {
		t.Errorf("exported %s, want [a5 b2 b10]", got)
	}
}

// TestVerdicts: a key never asked is unknown, one being computed is no
// until it is settled, and a settled one keeps its verdict.
func TestVerdicts(t *testing.T) {
	v := summaries.Verdicts[string]{}
	if _, ok := v.Known("a"); ok {
		t.Error("a never asked is known")
	}
	v.Start("a")
	if yes, ok := v.Known("a"); !ok || yes {
		t.Errorf("a being computed: Known = %v, %v; want no, true", yes, ok)
	}
	if !v.Settle("a", true) || v.Settle("b", false) {
		t.Error("Settle does not return the verdict")
	}
	if yes, ok := v.Known("a"); !ok || !yes {
		t.Errorf("a settled yes: Known = %v, %v", yes, ok)
	}
	if yes, ok := v.Known("b"); !ok || yes {
		t.Errorf("b settled no: Known = %v, %v", yes, ok)
	}
}
