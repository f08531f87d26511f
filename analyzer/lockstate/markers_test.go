package lockstate_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// TestStateAtMarkers runs the engine on testdata/src/markers and compares
// the lock state recorded at each call of here() with the state its
// comment states: Lock, RLock, TryLock, defer, joins, reassignment, loops,
// contracts and inferred helper effects, each on its own.
func TestStateAtMarkers(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockstate.Analyzer, "markers")
	checked := 0
	for _, r := range results {
		res := r.Result.(*lockstate.Result)
		fset := r.Pass.Fset
		wants := map[int]string{} // line -> expectations
		for _, f := range r.Pass.Files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if want, ok := strings.CutPrefix(c.Text, "// state: "); ok {
						wants[fset.Position(c.Slash).Line] = want
					}
				}
			}
		}
		seen := map[int]bool{}
		for _, fn := range res.Funcs {
			for _, call := range fn.Calls {
				if id, ok := call.Node.Fun.(*ast.Ident); !ok || id.Name != "here" {
					continue
				}
				line := fset.Position(call.Node.Pos()).Line
				want, ok := wants[line]
				if !ok {
					t.Errorf("line %d: here() without a // state: comment", line)
					continue
				}
				seen[line] = true
				for _, kv := range strings.Split(want, "; ") {
					path, mode, _ := strings.Cut(kv, "=")
					got := lockstate.Unknown
					for _, p := range call.State.Paths() {
						if p.String() == path {
							got = call.State.Lock(p).Mode
						}
					}
					if got.String() != mode {
						t.Errorf("line %d: %s is %q, want %q", line, path, got, mode)
					}
					checked++
				}
			}
		}
		for line := range wants {
			if !seen[line] {
				t.Errorf("line %d: no state recorded at this marker", line)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no marker checked")
	}
}

// TestEffectsAtMarkers compares each function's inferred Effects with the
// "// effects:" comment on its line; a function without one must have
// none.
func TestEffectsAtMarkers(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockstate.Analyzer, "markers")
	checked := 0
	for _, r := range results {
		res := r.Result.(*lockstate.Result)
		fset := r.Pass.Fset
		wants := map[int]string{}
		for _, f := range r.Pass.Files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if want, ok := strings.CutPrefix(c.Text, "// effects: "); ok {
						wants[fset.Position(c.Slash).Line] = want
					}
				}
			}
		}
		for _, f := range r.Pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				fn := r.Pass.TypesInfo.Defs[fd.Name].(*types.Func)
				line := fset.Position(fd.Pos()).Line
				got := ""
				if e := res.Effects[fn]; e != nil {
					got = e.String()
				}
				if got != wants[line] {
					t.Errorf("line %d: %s has effects %q, want %q", line, fn.Name(), got, wants[line])
				}
				if got != "" {
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no effects checked")
	}
}
