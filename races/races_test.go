package races_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guardvet/guardvet/races"
)

// TestFixtures runs the analysis on each fixture program under
// testdata/src (GOPATH-style) and checks its findings against the
// // want `regexp` comments: each finding must match a want on its line,
// and each want must be met. Fixtures with _test.go files run with tests
// as roots.
func TestFixtures(t *testing.T) {
	t.Parallel()
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := os.ReadDir(filepath.Join(gopath, "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		name := d.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkFixture(t, gopath, name)
		})
	}
}

func checkFixture(t *testing.T, gopath, pkg string) {
	dir := filepath.Join(gopath, "src", pkg)
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	res, err := races.Analyze([]string{pkg + "/..."}, races.Options{
		Tests: len(tests) > 0,
		Dir:   dir,
		Env:   append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	})
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		file string
		line int
	}
	wants := map[key][]*regexp.Regexp{}
	// The wants of the files the go command built: a file its build
	// constraints leave out (cgo.go without a C toolchain) is not part of
	// the program, nor are its wants. (A file cgo rewrites is loaded
	// under another name, with //line comments naming the source.)
	built := map[string]bool{}
	res.Fset.Iterate(func(f *token.File) bool {
		for line := 1; line <= f.LineCount(); line++ {
			built[res.Fset.Position(f.LineStart(line)).Filename] = true
		}
		return true
	})
	var files []string // the fixture's files, its packages' below it too
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	fset := token.NewFileSet()
	for _, f := range files {
		if !built[f] {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range af.Comments {
			for _, c := range g.List {
				for _, pat := range wantPatterns(c) {
					re, err := regexp.Compile(pat)
					if err != nil {
						t.Fatalf("%s: %v", fset.Position(c.Pos()), err)
					}
					p := fset.Position(c.Pos())
					wants[key{p.Filename, p.Line}] = append(wants[key{p.Filename, p.Line}], re)
				}
			}
		}
	}
	var problems []string
	for _, d := range res.Diagnostics {
		p := res.Fset.Position(d.Pos)
		k := key{p.Filename, p.Line}
		matched := -1
		for i, re := range wants[k] {
			if re.MatchString(d.Message) {
				matched = i
				break
			}
		}
		if matched < 0 {
			problems = append(problems, p.String()+": unexpected finding: "+d.Message)
			continue
		}
		wants[k] = append(wants[k][:matched], wants[k][matched+1:]...)
		if len(d.Related) == 0 || !d.Related[0].Pos.IsValid() {
			problems = append(problems, p.String()+": the finding does not carry the other side as a related position")
		}
		if n := strings.Count(d.Message, "more access"); n > 0 && len(d.Related) < 2 {
			problems = append(problems, p.String()+": the finding counts more accesses but lists none of them")
		}
	}
	for k, res := range wants {
		for _, re := range res {
			problems = append(problems, filepath.Base(k.file)+":"+itoa(k.line)+": no finding matches "+re.String())
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

var wantRe = regexp.MustCompile("`([^`]*)`")

func wantPatterns(c *ast.Comment) []string {
	text, ok := strings.CutPrefix(c.Text, "// want ")
	if !ok {
		return nil
	}
	var out []string
	for _, m := range wantRe.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTooLarge: a run that passes its memory limit stops with
// ErrTooLarge and a message saying what to do, instead of being killed.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	_, err = races.Analyze([]string{"ptmx"}, races.Options{
		Dir:         filepath.Join(gopath, "src", "ptmx"),
		Env:         append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
		MemoryLimit: 1,
	})
	if !errors.Is(err, races.ErrTooLarge) || !strings.Contains(err.Error(), "name fewer packages") {
		t.Errorf("err = %v, want ErrTooLarge with what to do", err)
	}
}
