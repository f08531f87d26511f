package lockstate_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/guardedby"
)

// FuzzEngineOnGeneratedCode checks the engine against an oracle on
// generated programs. The fuzzer's bytes drive a generator of small
// functions that lock, unlock, read-lock and touch a guarded field, under
// if/else, loops and early returns. The generator keeps the lock state
// itself as it writes the code (it only writes code whose state it knows
// on every path: each branch ends in the state it started in), and marks
// every access the lock does not cover with a // want of the diagnostic
// guardedby must give. analysistest then runs the real analyzer on the
// program and fails on any missing or extra diagnostic: the engine and
// the oracle must agree on every access. `go test` runs the seeds; make
// fuzz runs the target for longer.
func FuzzEngineOnGeneratedCode(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 1, 2},
		{1, 0, 1, 2, 0, 2},
		{3, 0, 1, 2, 0, 4, 2},
		{6, 1, 2, 7, 2, 0},
		{0, 3, 0, 1, 5, 2, 0, 2, 1},
		{0, 4, 1, 2, 6, 2, 1, 3, 2, 2},
		{6, 0, 4, 2, 1, 5, 0, 3, 1, 2, 7, 1},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			data = data[:64]
		}
		src := generate(data)
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "src", "gen"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "src", "gen", "gen.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		analysistest.Run(&explaining{T: t, src: src}, dir, guardedby.Analyzer, "gen")
	})
}

// TestEngineOnGeneratedPrograms runs the generator of
// FuzzEngineOnGeneratedCode on many fixed pseudo-random inputs at once,
// one package each, in one load: each run of make test checks the engine
// against the oracle on the same programs, far more than the fuzz seeds.
func TestEngineOnGeneratedPrograms(t *testing.T) {
	const programs = 60
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var names []string
	wants, readLocked, branches := 0, 0, 0
	for i := range programs {
		data := make([]byte, 8+rng.IntN(40))
		for k := range data {
			data[k] = byte(rng.IntN(256))
		}
		name := fmt.Sprintf("gen%d", i)
		src := strings.Replace(generate(data), "package gen", "package "+name, 1)
		if err := os.MkdirAll(filepath.Join(dir, "src", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "src", name, name+".go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		wants += strings.Count(src, "// want")
		readLocked += strings.Count(src, "is read-locked")
		branches += strings.Count(src, "if cond()") + strings.Count(src, "for i :=")
	}
	// The programs must exercise what the oracle knows, or this checks
	// little: accesses without the lock, writes under a read lock, and
	// branches and loops.
	if wants < programs || readLocked == 0 || branches < programs {
		t.Fatalf("the generated programs are too plain: %d wants, %d under a read lock, %d branches or loops", wants, readLocked, branches)
	}
	analysistest.Run(t, dir, guardedby.Analyzer, names...)
}

// explaining prints the generated program when analysistest reports a
// disagreement, so that a failure can be read without the fuzz cache.
type explaining struct {
	*testing.T
	src   string
	shown bool
}

func (e *explaining) Errorf(format string, args ...any) {
	if !e.shown {
		e.shown = true
		e.T.Logf("generated program:\n%s", e.src)
	}
	e.T.Errorf(format, args...)
}

// mode is the lock state the generator knows at a point of the program.
type mode int

const (
	unknown mode = iota // function entry: nothing is known
	free                // unlocked here
	read                // RLock
	write               // Lock
)

type gen struct {
	data  []byte
	i     int
	b     strings.Builder
	depth int
	m     mode
}

func (g *gen) next() int {
	if g.i >= len(g.data) {
		return -1
	}
	v := int(g.data[g.i])
	g.i++
	return v
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("\t", g.depth+1))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteString("\n")
}

// access writes a read or a write of s.n with the diagnostic the lock
// state calls for.
func (g *gen) access(isWrite bool) {
	stmt, verb := "_ = s.n", "read"
	if isWrite {
		stmt, verb = "s.n++", "written"
	}
	switch {
	case g.m == unknown || g.m == free:
		g.line("%s // want `s.n %s while s.mu is not`", stmt, verb)
	case isWrite && g.m == read:
		g.line("%s // want `s.n written while s.mu is read-locked`", stmt)
	default:
		g.line("%s", stmt)
	}
}

// toggle takes or releases the lock: Lock or RLock when it is free, the
// matching unlock when it is held.
func (g *gen) toggle(readLock bool) {
	switch g.m {
	case unknown, free:
		if readLock {
			g.line("s.mu.RLock()")
			g.m = read
		} else {
			g.line("s.mu.Lock()")
			g.m = write
		}
	case read:
		g.line("s.mu.RUnlock()")
		g.m = free
	case write:
		g.line("s.mu.Unlock()")
		g.m = free
	}
}

// restore brings the state back to m at the end of a branch: the one state
// both ways of a branch meet in.
func (g *gen) restore(m mode) {
	if g.m == m || (m == unknown && g.m == free) || (m == free && g.m == unknown) {
		g.m = m
		return
	}
	if g.m == read || g.m == write {
		g.toggle(false)
	}
	if m == read || m == write {
		g.toggle(m == read)
	}
	g.m = m
}

func (g *gen) block(budget int) {
	for n := 0; n < budget; n++ {
		op := g.next()
		if op < 0 {
			return
		}
		switch op % 8 {
		case 0:
			g.toggle(false)
		case 1:
			g.access(false)
		case 2:
			g.access(true)
		case 3, 4: // if / if-else, each way ending as it began
			if g.depth >= 3 {
				g.access(op%2 == 0)
				continue
			}
			entry := g.m
			g.line("if cond() {")
			g.depth++
			g.block(2)
			g.restore(entry)
			g.depth--
			if op%8 == 4 {
				g.line("} else {")
				g.depth++
				g.block(2)
				g.restore(entry)
				g.depth--
			}
			g.line("}")
		case 5: // an early return that releases what it holds
			entry := g.m
			g.line("if cond() {")
			g.depth++
			if g.next()%2 == 0 {
				g.access(false)
			}
			if g.m == read || g.m == write {
				g.toggle(false)
			}
			g.line("return")
			g.depth--
			g.line("}")
			g.m = entry // the way past the if did not take the return
		case 6: // a loop whose body ends as it began
			if g.depth >= 3 {
				continue
			}
			entry := g.m
			g.line("for i := 0; i < 3; i++ {")
			g.depth++
			g.block(3)
			g.restore(entry)
			g.depth--
			g.line("}")
		case 7:
			g.toggle(true)
		}
	}
}

// generate writes a package with one function the bytes drive, which
// ends with the lock released.
func generate(data []byte) string {
	g := &gen{data: data}
	g.b.WriteString(`package gen

import "sync"

type S struct {
	mu sync.RWMutex
	n  int //guard:by mu
}

func cond() bool { return len("x") > 0 }

func f(s *S) {
`)
	g.block(24)
	if g.m == read || g.m == write {
		g.toggle(false)
	}
	g.b.WriteString("}\n")
	return g.b.String()
}
