package goroutines_test

import (
	"go/ast"
	"go/token"
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
