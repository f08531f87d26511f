package astq

import (
	"go/ast"
	"iter"
	"reflect"

	"golang.org/x/tools/go/ast/inspector"
)

// Syntax is a package's syntax as an inspector's tree
// (go/ast/inspector), built the first time a rule asks what encloses a
// node, and dropped with the rule's run. (inspect.Analyzer's would be
// built in every package the rule runs in, dependencies included, and
// kept until the whole run ends.)
type Syntax struct {
	files []*ast.File
	in    *inspector.Inspector
}

// NewSyntax returns the Syntax of a package's files.
func NewSyntax(files []*ast.File) *Syntax { return &Syntax{files: files} }

// Tree returns the tree under root: a node of the package's files (a
// file, a declaration, a body), or a node made up of such nodes, as the
// engine's declaration of a package-level function variable is made of
// its literal's type and body.
func (s *Syntax) Tree(root ast.Node) *Tree {
	if isNil(root) {
		return &Tree{}
	}
	if s.in == nil {
		s.in = inspector.New(s.files)
	}
	if c, ok := find(s.in.Root(), root); ok {
		return &Tree{root: c}
	}
	t := &Tree{made: root}
	ast.Inspect(root, func(n ast.Node) bool {
		if n != nil && n != root {
			t.parts = append(t.parts, s.Tree(n))
			return false
		}
		return n == root
	})
	return t
}

// Tree is the syntax under one root, read through an inspector's cursors:
// the parent of each node under the root, up to the root, which has none
// (nor has a node that is not under it). The zero Tree has no nodes.
type Tree struct {
	root inspector.Cursor
	// made is a root that is not a node of the files, and parts the
	// trees of its children.
	made  ast.Node
	parts []*Tree
}

// top returns the tree's root node.
func (t *Tree) top() ast.Node {
	if t.made != nil {
		return t.made
	}
	if t.root.Valid() {
		return t.root.Node()
	}
	return nil
}

// Parent returns the node that encloses n, nil for the root and for a
// node not under it.
func (t *Tree) Parent(n ast.Node) ast.Node {
	if t.made != nil {
		for _, part := range t.parts {
			if n == part.top() {
				return t.made
			}
			if p := part.Parent(n); p != nil {
				return p
			}
		}
		return nil
	}
	c, ok := t.cursor(n)
	if !ok || c == t.root {
		return nil
	}
	return c.Parent().Node()
}

// Up returns the parent of n, looking through parentheses, and the child
// under it: n itself, or the outermost parenthesis around it.
func (t *Tree) Up(n ast.Node) (parent, child ast.Node) {
	for n, p := range t.Ancestry(n) {
		if _, paren := p.(*ast.ParenExpr); !paren {
			return p, n
		}
	}
	return nil, n
}

// Ancestry yields n and each node that encloses it, innermost first, up
// to the root, each with its parent (nil for the root); n alone, with no
// parent, when it is not under the root.
func (t *Tree) Ancestry(n ast.Node) iter.Seq2[ast.Node, ast.Node] {
	return func(yield func(n, parent ast.Node) bool) {
		if isNil(n) {
			return
		}
		switch t.ancestry(n, yield) {
		case notUnder:
			yield(n, nil)
		case atRoot:
			yield(t.top(), nil)
		}
	}
}

// walk is how far ancestry went.
type walk int

const (
	notUnder walk = iota // n is not under the tree's root
	stopped              // yield asked to stop
	atRoot               // the root was reached; it is yielded by the caller
)

// ancestry yields n and the nodes above it below the root, each with its
// parent, and says how far it went.
func (t *Tree) ancestry(n ast.Node, yield func(n, parent ast.Node) bool) walk {
	if t.made != nil {
		if n == t.made {
			return atRoot
		}
		for _, part := range t.parts {
			switch part.ancestry(n, yield) {
			case stopped:
				return stopped
			case atRoot:
				if !yield(part.top(), t.made) {
					return stopped
				}
				return atRoot
			}
		}
		return notUnder
	}
	c, ok := t.cursor(n)
	if !ok {
		return notUnder
	}
	for c != t.root {
		p := c.Parent()
		if !yield(c.Node(), p.Node()) {
			return stopped
		}
		c = p
	}
	return atRoot
}

// cursor returns n's cursor, if n is the root or under it.
func (t *Tree) cursor(n ast.Node) (inspector.Cursor, bool) {
	if !t.root.Valid() || isNil(n) {
		return inspector.Cursor{}, false
	}
	return find(t.root, n)
}

// find returns the cursor of n among root and the nodes under it. The
// innermost node that spans n's extent is n or lies under it, but for
// nodes of the same extent as n below it, and for the odd node that
// overlaps another (a declaration's name and its func type): n is looked
// for above that node first, then through the whole subtree.
// (FindByPos skips what ends before n, so it is quick where FindNode
// would read every node ahead of n.)
func find(root inspector.Cursor, n ast.Node) (inspector.Cursor, bool) {
	if n.Pos() > n.End() {
		return root.FindNode(n)
	}
	if c, ok := root.FindByPos(n.Pos(), n.End()); ok {
		for {
			if c.Node() == n {
				return c, true
			}
			if c == root {
				break
			}
			c = c.Parent()
		}
	}
	return root.FindNode(n)
}

// isNil reports whether n is no node: nil, or a nil pointer.
func isNil(n ast.Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
