package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/suite"
)

// manyGlobals is how many guarded package-level variables, each with its
// own lock, the generated package declares.
const manyGlobals = 3000

// writeManyGlobals writes a GOPATH tree with two packages. lib declares
// manyGlobals variables, each //guard:by its own package-level mutex, and
// reads each one after calls to two unannotated lock helpers: LockAll,
// which locks the package-level All, and Lock(&Mu), which locks the mutex
// it is given. use, in another package, does the same through lib's
// exported helpers. Every 100th variable also has a read with no lock,
// so guardedby has findings to name locks in.
//
// Each rule resolves the package-level locks it meets through
// directives.Result.Global, whose cache is filled lazily: lockstate, which
// runs first, resolves All (a helper's effect) but not the Mu locks (taken
// through a parameter), so guardedby, resolving the guards, fills the
// cache while lockorder, resolving lockAll's effect at each call, reads
// it, in parallel.
func writeManyGlobals(t *testing.T) (gopath string, racy int) {
	gopath = t.TempDir()
	var lib, use strings.Builder
	lib.WriteString(`package lib

import "sync"

var All sync.Mutex

func LockAll()   { All.Lock() }
func UnlockAll() { All.Unlock() }

func Lock(m *sync.Mutex)   { m.Lock() }
func Unlock(m *sync.Mutex) { m.Unlock() }
`)
	use.WriteString("package use\n\nimport \"manyglobals/lib\"\n")
	for i := range manyGlobals {
		fmt.Fprintf(&lib, `
var Mu%[1]d sync.Mutex

//guard:by Mu%[1]d
var V%[1]d int

func get%[1]d() int {
	LockAll()
	defer UnlockAll()
	Lock(&Mu%[1]d)
	defer Unlock(&Mu%[1]d)
	return V%[1]d
}
`, i)
		fmt.Fprintf(&use, `
func Get%[1]d() int {
	lib.LockAll()
	defer lib.UnlockAll()
	lib.Lock(&lib.Mu%[1]d)
	defer lib.Unlock(&lib.Mu%[1]d)
	return lib.V%[1]d
}
`, i)
		if i%100 == 0 {
			fmt.Fprintf(&lib, "\nfunc racy%[1]d() int { return V%[1]d }\n", i)
			fmt.Fprintf(&use, "\nfunc Racy%[1]d() int { return lib.V%[1]d }\n", i)
			racy += 2
		}
	}
	for name, src := range map[string]string{"lib/lib.go": lib.String(), "use/use.go": use.String()} {
		p := filepath.Join(gopath, "src", "manyglobals", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return gopath, racy
}

// TestManyGlobalsEveryRule runs every rule, five times, on the generated
// packages. With directives.Result.Global's cache unsynchronised, go test
// -race reports the data race between guardedby and lockorder, and a plain
// go test dies of a fatal concurrent map read and write. Every run must
// report the same findings: one guardedby report per unlocked read.
func TestManyGlobalsEveryRule(t *testing.T) {
	gopath, racy := writeManyGlobals(t)
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  gopath,
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "manyglobals/...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 2 {
		t.Fatalf("loaded %d packages, want 2", len(pkgs))
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
	}
	var first []string
	for run := range 5 {
		res, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, act := range res.Roots {
			if act.Err != nil {
				t.Fatalf("run %d: %s: %v", run, act, act.Err)
			}
			for _, d := range act.Diagnostics {
				got = append(got, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
			}
		}
		sort.Strings(got)
		if run == 0 {
			first = got
			if len(got) != racy {
				t.Fatalf("got %d diagnostics, want %d (one per read that skips the helper):\n%s", len(got), racy, strings.Join(got, "\n"))
			}
			for _, d := range got {
				if !strings.Contains(d, "guardedby: ") || !strings.Contains(d, "read while ") {
					t.Fatalf("unexpected diagnostic %s", d)
				}
			}
			continue
		}
		if strings.Join(got, "\n") != strings.Join(first, "\n") {
			t.Fatalf("run %d reported other findings than run 0", run)
		}
	}
}
