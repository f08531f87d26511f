package lockstate_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
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
		wants := map[string]string{} // file:line -> expectations
		for _, f := range r.Pass.Files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if want, ok := strings.CutPrefix(c.Text, "// state: "); ok {
						wants[lineOf(fset, c.Slash)] = want
					}
				}
			}
		}
		seen := map[string]bool{}
		for _, fn := range res.Funcs {
			for _, call := range fn.Calls {
				if id, ok := call.Node.Fun.(*ast.Ident); !ok || id.Name != "here" {
					continue
				}
				line := lineOf(fset, call.Node.Pos())
				want, ok := wants[line]
				if !ok {
					t.Errorf("%s: here() without a // state: comment", line)
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
						t.Errorf("%s: %s is %q, want %q", line, path, got, mode)
					}
					checked++
				}
			}
		}
		for line := range wants {
			if !seen[line] {
				t.Errorf("%s: no state recorded at this marker", line)
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
		wants := map[string]string{}
		for _, f := range r.Pass.Files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if want, ok := strings.CutPrefix(c.Text, "// effects: "); ok {
						wants[lineOf(fset, c.Slash)] = want
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
				line := lineOf(fset, fd.Pos())
				got := ""
				if e := res.Effects[fn]; e != nil {
					got = e.String()
				}
				if got != wants[line] {
					t.Errorf("%s: %s has effects %q, want %q", line, fn.Name(), got, wants[line])
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

// lineOf names the line of pos as file:line, so markers in different files
// of the package do not share a key.
func lineOf(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
