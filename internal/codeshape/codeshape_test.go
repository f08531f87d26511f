package codeshape

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const (
	maxFuncLines = 80
	maxFileLines = 800
	// reasonMark starts the written reason that lets a function or a file
	// be longer, in the function's doc comment or the file's first
	// comment: "Long: a type switch over every statement kind".
	reasonMark = "Long:"
)

// repoRoot is the module root, two directories up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// load type-checks the module's packages, tests included, without the
// fixtures and corpora under testdata (./... leaves them out).
func load(t *testing.T) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:   repoRoot(t),
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the module does not type-check")
	}
	return pkgs
}

// eachFile calls f once per non-test Go file of the module.
func eachFile(pkgs []*packages.Package, f func(p *packages.Package, file *ast.File, name string)) {
	seen := map[string]bool{}
	for _, p := range pkgs {
		for _, file := range p.Syntax {
			name := p.Fset.Position(file.Pos()).Filename
			if seen[name] || strings.HasSuffix(name, "_test.go") {
				continue
			}
			seen[name] = true
			f(p, file, name)
		}
	}
}

func TestSizes(t *testing.T) {
	pkgs := load(t)
	files := 0
	eachFile(pkgs, func(p *packages.Package, file *ast.File, name string) {
		files++
		lines := p.Fset.File(file.Pos()).LineCount()
		if lines > maxFileLines && !fileReason(file) {
			t.Errorf("%s: %d lines, over %d: split it by concern, or give the reason in a comment starting %q before the package clause", name, lines, maxFileLines, reasonMark)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := p.Fset.Position(fd.End()).Line - p.Fset.Position(fd.Pos()).Line + 1
			if n > maxFuncLines && !(fd.Doc != nil && strings.Contains(fd.Doc.Text(), reasonMark)) {
				t.Errorf("%s: %s is %d lines, over %d: split it, or give the reason in its doc comment, starting %q", p.Fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines, reasonMark)
			}
		}
	})
	if files < 100 {
		t.Fatalf("checked %d files; the module has more: the load went wrong", files)
	}
}

func fileReason(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		if strings.Contains(g.Text(), reasonMark) {
			return true
		}
	}
	return false
}

// TestNoPackageStateWritten: a package-level variable is written only
// while flags are parsed: in init, through the address a flag is bound to
// (fs.BoolVar(&options.infer, ...)), or in a flag.Value's Set method.
// Anything else is state shared by every package a run analyses, and
// by every run of a process.
func TestNoPackageStateWritten(t *testing.T) {
	pkgs := load(t)
	writes := 0
	eachFile(pkgs, func(p *packages.Package, file *ast.File, name string) {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || (fd.Recv == nil && fd.Name.Name == "init") || (fd.Recv != nil && fd.Name.Name == "Set") {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				var targets []ast.Expr
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE {
						targets = n.Lhs
					}
				case *ast.IncDecStmt:
					targets = []ast.Expr{n.X}
				}
				for _, e := range targets {
					writes++
					if v := packageVar(p.TypesInfo, e); v != nil {
						t.Errorf("%s: %s writes package-level %s: make it a value the caller passes, or a field of one", p.Fset.Position(e.Pos()), fd.Name.Name, v.Name())
					}
				}
				return true
			})
		}
	})
	if writes < 1000 {
		t.Fatalf("saw %d assignments; the module has more: the load went wrong", writes)
	}
}

// packageVar returns the package-level variable an assignment to e
// writes: e itself, or the variable e selects a field or an element of
// (x.f, x[i], where x is not a pointer). Writes through a pointer held in
// a package-level variable write what it points to, and are not counted.
func packageVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil {
				if _, ptr := info.TypeOf(x.X).Underlying().(*types.Pointer); ptr {
					return nil
				}
				e = x.X
				continue
			}
			e = x.Sel // pkg.V
			continue
		case *ast.IndexExpr:
			if _, isArray := info.TypeOf(x.X).Underlying().(*types.Array); !isArray {
				return nil // a map's or a slice's element: not the variable itself
			}
			e = x.X
			continue
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return v
			}
		}
		return nil
	}
}
