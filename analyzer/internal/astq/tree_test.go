package astq

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/guardvet/guardvet/analyzer/internal/testdir"
)

// TestTreeAnswersAsParentMap: for roots of every kind the rules use (a
// file, a declaration, a body, a function literal, a declaration made up
// of a literal's parts), Parent, Up and
// Ancestry give what a map from each node under the root to its parent
// gives, for every node of the package, those outside the root included.
func TestTreeAnswersAsParentMap(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{
		filepath.Join(testdir.Path(t), "src", "checkthenact", "cta.go"),
		filepath.Join(testdir.Path(t), "src", "escapesnap", "escapesnap.go"),
		filepath.Join(testdir.Path(t), "src", "generics", "generics.go"),
		"tree.go",
	} {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var all, roots []ast.Node
	for _, f := range files {
		roots = append(roots, f)
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			all = append(all, n)
			switch n := n.(type) {
			case *ast.FuncDecl:
				roots = append(roots, n)
				if n.Body != nil {
					roots = append(roots, n.Body)
				}
			case *ast.FuncLit:
				roots = append(roots, n, n.Body)
				// The engine's declaration of a function variable is
				// made up of its literal's type and body.
				name := &ast.Ident{NamePos: n.Pos(), Name: "v"}
				made := &ast.FuncDecl{Doc: f.Doc, Name: name, Type: n.Type, Body: n.Body}
				roots = append(roots, made)
				all = append(all, made, name)
			}
			return true
		})
	}
	syn := NewSyntax(files)
	for _, root := range roots {
		parents := parentMap(root)
		tree := syn.Tree(root)
		for _, n := range all {
			if got, want := tree.Parent(n), parents[n]; got != want {
				t.Fatalf("root %T at %v: Parent(%T at %v) = %T, want %T", root, fset.Position(root.Pos()), n, fset.Position(n.Pos()), got, want)
			}
			gp, gc := tree.Up(n)
			wp, wc := upByMap(parents, n)
			if gp != wp || gc != wc {
				t.Fatalf("root %T at %v: Up(%T at %v) = %T, %T; want %T, %T", root, fset.Position(root.Pos()), n, fset.Position(n.Pos()), gp, gc, wp, wc)
			}
			var got []ast.Node
			for x, p := range tree.Ancestry(n) {
				got = append(got, x, p)
			}
			var want []ast.Node
			for x := n; x != nil; x = parents[x] {
				want = append(want, x, parents[x])
			}
			if len(got) != len(want) {
				t.Fatalf("root %T: Ancestry(%T at %v) has %d entries, want %d", root, n, fset.Position(n.Pos()), len(got)/2, len(want)/2)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("root %T: Ancestry(%T at %v)[%d] = %T, want %T", root, n, fset.Position(n.Pos()), i/2, got[i], want[i])
				}
			}
		}
	}
	if tree := syn.Tree(&ast.Ident{Name: "elsewhere"}); tree.Parent(files[0].Decls[0]) != nil {
		t.Error("a Tree of a node outside the package gives parents")
	}
}

// upByMap is Up on a parent map.
func upByMap(parents map[ast.Node]ast.Node, n ast.Node) (parent, child ast.Node) {
	p := parents[n]
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return p, n
		}
		n, p = pe, parents[pe]
	}
}

// parentMap is what the rules used before Tree: every node under root
// mapped to its parent, the root to none.
func parentMap(root ast.Node) map[ast.Node]ast.Node {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return parents
}
