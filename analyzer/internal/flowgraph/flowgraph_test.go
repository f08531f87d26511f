package flowgraph_test

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
	"github.com/guardvet/guardvet/analyzer/internal/testsrc"
)

const src = `package p

import (
	"fmt"
	"log"
	"os"
	"runtime"
	"testing"
)

func Exit(int) {}

func calls(t *testing.T, b *testing.B, tb testing.TB, f func()) {
	panic("x")
	os.Exit(1)
	log.Fatal("x")
	log.Fatalf("x")
	log.Fatalln("x")
	log.Panic("x")
	runtime.Goexit()
	t.Fatal("x")
	t.Fatalf("x")
	t.FailNow()
	t.Skip("x")
	t.Skipf("x")
	t.SkipNow()
	_ = t.Skipped()
	b.Fatal("x")
	tb.FailNow()
	t.Error("x")
	t.Fail()
	t.Log("x")
	fmt.Println("x")
	log.Print("x")
	os.Getenv("x")
	runtime.Gosched()
	Exit(1)
	f()
	func() {}()
	_ = len("x")
}

func shadow() {
	panic := func(string) {}
	panic("x")
}

func exits(x int) int {
	if x > 0 {
		os.Exit(1)
		println("after exit")
	}
	println("live")
	return x
}
`

type fixture struct{ *testsrc.Source }

func load(t *testing.T) *fixture { return &fixture{testsrc.Check(t, src)} }

func (f *fixture) body(t *testing.T, name string) *ast.BlockStmt {
	t.Helper()
	for _, d := range f.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd.Body
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

// calls maps each call in body, printed as source, to the call.
func calls(body ast.Node) map[string]*ast.CallExpr {
	out := map[string]*ast.CallExpr{}
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			out[types.ExprString(c)] = c
		}
		return true
	})
	return out
}

func TestMayReturn(t *testing.T) {
	f := load(t)
	cs := calls(f.body(t, "calls"))
	for _, tc := range []struct {
		call string
		want bool
	}{
		{`panic("x")`, false},
		{"os.Exit(1)", false},
		{`log.Fatal("x")`, false},
		{`log.Fatalf("x")`, false},
		{`log.Fatalln("x")`, false},
		{`log.Panic("x")`, false},
		{"runtime.Goexit()", false},
		{`t.Fatal("x")`, false},
		{`t.Fatalf("x")`, false},
		{"t.FailNow()", false},
		{`t.Skip("x")`, false},
		{`t.Skipf("x")`, false},
		{"t.SkipNow()", false},
		{"t.Skipped()", true}, // a query: it returns
		{`b.Fatal("x")`, false},
		{"tb.FailNow()", false},
		{`t.Error("x")`, true},
		{"t.Fail()", true},
		{`t.Log("x")`, true},
		{`fmt.Println("x")`, true},
		{`log.Print("x")`, true},
		{`os.Getenv("x")`, true},
		{"runtime.Gosched()", true},
		{"Exit(1)", true},            // this package's Exit, not os.Exit
		{"f()", true},                // a function value
		{"(func() literal)()", true}, // a function literal
		{`len("x")`, true},           // a builtin other than panic
	} {
		c, ok := cs[tc.call]
		if !ok {
			t.Fatalf("no call %s", tc.call)
		}
		if got := flowgraph.MayReturn(f.Info, c); got != tc.want {
			t.Errorf("MayReturn(%s) = %v, want %v", tc.call, got, tc.want)
		}
	}
}

func TestMayReturnShadowedPanic(t *testing.T) {
	f := load(t)
	c := calls(f.body(t, "shadow"))[`panic("x")`]
	if c == nil {
		t.Fatal("no panic call")
	}
	if !flowgraph.MayReturn(f.Info, c) {
		t.Error("a local func named panic cannot return")
	}
}

// blockOf returns the block whose nodes include the statement that prints
// as stmt (an expression statement's call).
func blockOf(t *testing.T, g *cfg.CFG, stmt string) *cfg.Block {
	t.Helper()
	for _, b := range g.Blocks {
		for _, n := range b.Nodes {
			if es, ok := n.(*ast.ExprStmt); ok && types.ExprString(es.X) == stmt {
				return b
			}
		}
	}
	t.Fatalf("no block holds %s", stmt)
	return nil
}

// reachable returns the blocks reachable from b by one or more edges.
func reachable(b *cfg.Block) map[*cfg.Block]bool {
	seen := map[*cfg.Block]bool{}
	work := append([]*cfg.Block(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return seen
}

func TestNewEndsPathAtExit(t *testing.T) {
	f := load(t)
	body := f.body(t, "exits")
	g := flowgraph.New(f.Info, body)
	exit := blockOf(t, g, "os.Exit(1)")
	after := blockOf(t, g, `println("after exit")`)
	live := blockOf(t, g, `println("live")`)
	if after == exit {
		t.Fatal("the code after os.Exit is in the call's own block")
	}
	if len(exit.Succs) != 0 {
		t.Errorf("os.Exit's block has %d successors, want none", len(exit.Succs))
	}
	for b := range reachable(exit) {
		if b == after || b.Live {
			t.Errorf("block %s is a live successor of os.Exit's block", b)
		}
	}
	if after.Live {
		t.Error("the block after os.Exit is live")
	}
	if !live.Live || !exit.Live {
		t.Error("the blocks before and beside os.Exit are not live")
	}

	// Control: a graph that lets every call return reaches the code
	// after the call.
	all := cfg.New(body, func(*ast.CallExpr) bool { return true })
	if a, e := blockOf(t, all, `println("after exit")`), blockOf(t, all, "os.Exit(1)"); !a.Live || !(a == e || reachable(e)[a]) {
		t.Error("control graph: the code after os.Exit is not reached")
	}
}
