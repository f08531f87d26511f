package goroutines_test

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

const src = `package p

import (
	"sync"
	"testing"
)

func loop(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done() }()
		_ = i // in
	}
	wg.Wait()
	_ = n // out
}

func joinedInLoop(n int) {
	for i := 0; i < n; i++ {
		done := make(chan bool)
		go func() { done <- true }()
		_ = i // in
		<-done
		_ = i // out
	}
}

func selectJoin(stop chan bool) {
	done := make(chan bool)
	go func() { close(done) }()
	select {
	case <-done:
		_ = 1 // out
	case <-stop:
		_ = 2 // in
	}
}

func selectThenJoin(a, b chan bool) {
	done := make(chan bool)
	go func() { close(done) }()
	select {
	case <-a:
	case <-b:
	}
	<-done
}

func fatalBeforeJoin(t *testing.T, a chan bool) {
	done := make(chan bool)
	go func() { close(done) }()
	select {
	case <-a:
	default:
		t.Fatal("no")
	}
	<-done
}

func noJoin() (err error) {
	go func() { err = nil }()
	return nil
}

func signalOnSomePaths(ok bool, stop chan bool) {
	done := make(chan bool, 1)
	go func() {
		if ok {
			done <- true
		}
	}()
	if <-stop {
		done <- false
	}
	<-done
	_ = ok // in
}

func onlySignaller(ok bool) {
	done := make(chan bool)
	go func() {
		if ok {
			done <- true
		}
	}()
	<-done
	_ = ok // out
}

func signalOrPanic(ok bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if !ok {
			panic("no")
		}
	}()
	wg.Wait()
	_ = ok // out
}
`

// TestRegions checks each start's region on the marked lines: "// in" runs
// while the goroutine may, "// out" after its join.
func TestRegions(t *testing.T) {
	source := testsrc.Check(t, src)
	fset, f, info := source.Fset, source.File, source.Info
	repeats := map[string]bool{"loop": true}
	outlives := map[string]bool{"selectJoin": true, "noJoin": true, "fatalBeforeJoin": true, "signalOnSomePaths": true}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		bodies := goroutines.Find(info, fd)
		if len(bodies) != 1 || len(bodies[0].Spawns) != 1 {
			t.Fatalf("%s: %d bodies, want 1 with 1 start", fd.Name.Name, len(bodies))
		}
		s := bodies[0].Spawns[0]
		if s.Repeats != repeats[fd.Name.Name] {
			t.Errorf("%s: Repeats = %v", fd.Name.Name, s.Repeats)
		}
		if s.OutlivesReturn() != outlives[fd.Name.Name] {
			t.Errorf("%s: OutlivesReturn = %v", fd.Name.Name, s.OutlivesReturn())
		}
		for _, g := range f.Comments {
			c := g.List[0]
			if c.Pos() < fd.Pos() || c.Pos() > fd.End() {
				continue
			}
			line := fset.Position(c.Pos()).Line
			var stmt token.Pos
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && fset.Position(as.Pos()).Line == line {
					stmt = as.Pos()
				}
				return true
			})
			want := strings.TrimSpace(strings.TrimPrefix(c.Text, "//")) == "in"
			if got := s.Concurrent(stmt); got != want {
				t.Errorf("%s line %d: Concurrent = %v, want %v", fd.Name.Name, line, got, want)
			}
		}
	}
}

const helperSrc = `package p

import "sync"

func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); f(i) }()
	}
	wg.Wait()
}

func once(f func()) {
	done := make(chan bool)
	go func() { f(); close(done) }()
	<-done
}

func inTurn(n int, f func(int)) {
	for i := 0; i < n; i++ {
		f(i)
	}
}

func useParallel() { parallel(4, func(i int) {}) }
func useOnce()     { once(func() {}) }
func useInTurn()   { inTurn(4, func(i int) {}) }
`

// TestHelperStarts: a helper that runs its function argument in
// goroutines and waits for them starts instances of the literal passed to
// it, which repeat when the helper's go statement is in a loop; a helper
// that joins another way, or calls its argument in turn, starts nothing.
func TestHelperStarts(t *testing.T) {
	source := testsrc.Check(t, helperSrc)
	decls := map[string]*ast.FuncDecl{}
	for _, d := range source.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			decls[fd.Name.Name] = fd
		}
	}
	declOf := func(fn *types.Func) *ast.FuncDecl { return decls[fn.Name()] }
	bodies := goroutines.FindWith(source.Info, decls["useParallel"], declOf)
	if len(bodies) != 1 || len(bodies[0].Spawns) != 1 {
		t.Fatalf("useParallel: %d bodies, want 1 with 1 start", len(bodies))
	}
	if s := bodies[0].Spawns[0]; s.Kind != goroutines.HelperGo || s.Lit == nil || !s.Repeats || s.OutlivesReturn() {
		t.Errorf("useParallel: kind %v, lit %v, repeats %v, outlives %v; want a repeating helper start joined by the call", s.Kind, s.Lit != nil, s.Repeats, s.OutlivesReturn())
	}
	for _, name := range []string{"useOnce", "useInTurn"} {
		if bodies := goroutines.FindWith(source.Info, decls[name], declOf); len(bodies) != 0 {
			t.Errorf("%s: %d bodies with starts, want none", name, len(bodies))
		}
	}
}
