package escape

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// takenOver reports whether the critical section that copied the map or
// slice field into a local gives the field a new value before the lock is
// released, on every path: ch := x.f; x.f = nil. The local then holds the
// only reference to the old contents (the take-ownership swap).
func takenOver(f *lockstate.Func, parents *astq.Tree, src *lockstate.Access, local *types.Var, lock lockpath.Path) bool {
	site := src.State.Lock(lock).Site
	var stmt ast.Node
	var block *ast.BlockStmt
	for n, parent := range parents.Ancestry(src.Node) {
		if b, ok := parent.(*ast.BlockStmt); ok {
			stmt, block = n, b
			break
		}
	}
	if block == nil {
		return false
	}
	after := false
	for _, s := range block.List {
		if s == stmt {
			after = true
			continue
		}
		if !after {
			continue
		}
		if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
			for i, lhs := range as.Lhs {
				acc := f.AccessAt(lhs)
				if acc == nil || !acc.Write || acc.Var != src.Var || acc.Base != src.Base {
					continue
				}
				v := acc.State.Lock(lock)
				if !v.Mode.Held() || v.Site != site {
					continue
				}
				if mentions(f, as.Rhs[i], src.Var, local) {
					continue // x.f = x.f[:0], x.f = ch: the old contents stay shared
				}
				return true
			}
		}
		if leaves(s) {
			return false
		}
	}
	return false
}

// mentions reports whether e refers to the field or the local.
func mentions(f *lockstate.Func, e ast.Expr, field, local *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := f.Resolver.Info.Uses[id]; obj == types.Object(field) || obj == types.Object(local) {
				found = true
			}
		}
		return !found
	})
	return found
}

// leaves reports whether a statement can leave the block early: a return,
// branch or goto outside function literals.
func leaves(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			found = true
		}
		return !found
	})
	return found
}

// tree returns the syntax of f's function: its declaration, or its
// literal.
func (sn *snapshots) tree(f *lockstate.Func) *astq.Tree {
	var root ast.Node = f.Decl
	if f.Lit != nil {
		root = f.Lit
	}
	return sn.syntax.Tree(root)
}

// snapshots decides, per guarded map or slice field, whether the package
// ever writes the field's contents in place. If it does not (the field is
// only replaced by a new value, or appended to, and its elements are
// either never written or carry their own lock), a copy of the field taken
// under the lock is a snapshot: its contents never change, so it may be
// read after the lock is released.
type snapshots struct {
	pass    *analysis.Pass
	dirs    *directives.Result
	syntax  *astq.Syntax
	uses    map[types.Object][]*ast.Ident
	done    map[*types.Var]bool
	visited map[types.Object]bool
	// handOut marks the copy-on-write reading (copyOnWrite, in cow): a
	// value handed out (returned) keeps its contents, appending to the
	// field in place does not.
	handOut bool
	cow     *snapshots
	// strict is -config.strict: copy-on-write and nil values are
	// reported as well.
	strict bool
}

func newSnapshots(pass *analysis.Pass, dirs *directives.Result) *snapshots {
	return &snapshots{pass: pass, dirs: dirs, syntax: astq.NewSyntax(pass.Files), done: map[*types.Var]bool{}}
}

// unshared reports whether the contents of field are never written in
// place anywhere in the package, directly or through a local copy.
func (sn *snapshots) unshared(field *types.Var) bool {
	field = field.Origin()
	if r, ok := sn.done[field]; ok {
		return r
	}
	r := false
	// An exported field can be written by other packages; so can one of a
	// type declared elsewhere.
	if field.Pkg() == sn.pass.Pkg && !field.Exported() && astq.IsContainer(field.Type()) {
		sn.index()
		sn.visited = map[types.Object]bool{}
		r = sn.readOnly(field)
	}
	sn.done[field] = r
	return r
}

// index finds the identifier uses of the package, once.
func (sn *snapshots) index() {
	if sn.uses != nil {
		return
	}
	sn.uses = map[types.Object][]*ast.Ident{}
	for _, file := range sn.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := sn.pass.TypesInfo.Uses[id]; obj != nil {
					if v, ok := obj.(*types.Var); ok {
						obj = v.Origin()
					}
					sn.uses[obj] = append(sn.uses[obj], id)
				}
			}
			return true
		})
	}
}

// treeAt returns the syntax of the file at pos.
func (sn *snapshots) treeAt(pos token.Pos) (*astq.Tree, bool) {
	for _, file := range sn.pass.Files {
		if file.FileStart <= pos && pos <= file.FileEnd {
			return sn.syntax.Tree(file), true
		}
	}
	return nil, false
}

// readOnly reports whether every use of obj (the field, or a local holding
// a copy of it) leaves its contents unchanged.
func (sn *snapshots) readOnly(obj types.Object) bool {
	if sn.visited[obj] {
		return true
	}
	sn.visited[obj] = true
	for _, id := range sn.uses[obj] {
		parents, ok := sn.treeAt(id.Pos())
		if !ok {
			return false
		}
		if sn.ignored(parents, id) {
			continue // a function outside the lock discipline (//guard:ignore, +checklocksignore)
		}
		var e ast.Node = id
		if sel, ok := parents.Parent(id).(*ast.SelectorExpr); ok && sel.Sel == id {
			e = sel
		}
		if !sn.contentsKept(parents, e, obj.Type()) {
			return false
		}
	}
	return true
}

// ignored reports whether n sits in a function declared //guard:ignore.
func (sn *snapshots) ignored(parents *astq.Tree, n ast.Node) bool {
	for n := range parents.Ancestry(n) {
		if fd, ok := n.(*ast.FuncDecl); ok {
			fn, _ := sn.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				return false
			}
			c := sn.dirs.Contract(fn)
			return c != nil && c.Ignore != ""
		}
	}
	return false
}

// contentsKept reports whether the use e of a map or slice value of type t
// leaves the contents unchanged: it reads them, replaces the whole value,
// or appends and stores the result back.
func (sn *snapshots) contentsKept(parents *astq.Tree, e ast.Node, t types.Type) bool {
	p, e := parents.Up(e)
	switch p := p.(type) {
	case *ast.IndexExpr:
		if p.X != e {
			return true
		}
		return sn.elementKept(parents, p, t)
	case *ast.SliceExpr:
		if p.X != e || p.High != nil || p.Max != nil {
			return false // a shorter alias: appending to it overwrites the tail
		}
		return sn.contentsKept(parents, p, t)
	case *ast.RangeStmt:
		return p.X == e
	case *ast.ReturnStmt:
		return sn.handOut // handed out: its owner never writes it again
	case *ast.BinaryExpr:
		return true
	case *ast.CallExpr:
		id, ok := ast.Unparen(p.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := sn.pass.TypesInfo.Uses[id].(*types.Builtin)
		if !ok {
			return false
		}
		switch b.Name() {
		case "len", "cap":
			return true
		case "copy":
			return len(p.Args) == 2 && p.Args[1] == e
		case "append":
			return sn.appendKept(parents, p, e)
		}
		return false
	case *ast.AssignStmt:
		for _, lhs := range p.Lhs {
			if lhs == e {
				return true // replaced by a new value
			}
		}
		if len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for i, rhs := range p.Rhs {
			if rhs == e {
				return sn.copiedTo(p.Lhs[i], e)
			}
		}
	case *ast.KeyValueExpr:
		return p.Key == e // T{f: v} gives the field its first value
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == e && i < len(p.Names) {
				return sn.copiedTo(p.Names[i], e)
			}
		}
	}
	return false
}

// appendKept reports whether append(...) call p, with the map or slice
// value e among its arguments, leaves e's contents unchanged.
func (sn *snapshots) appendKept(parents *astq.Tree, p *ast.CallExpr, e ast.Node) bool {
	if len(p.Args) > 1 && p.Args[len(p.Args)-1] == e && p.Ellipsis.IsValid() {
		return true // append(dst, x.f...) copies
	}
	if p.Args[0] != e {
		return false
	}
	if sn.handOut {
		// Appending in place writes the spare capacity every handed-out
		// copy shares, unless the value appended to is nil: a new array.
		return sn.knownEmpty(parents, e)
	}
	// x.f = append(x.f, v) writes past the length of every copy of
	// x.f. Appending to a copy (a local, or y.f = x.f) would write
	// inside x.f's length once x.f has grown.
	as, ok := parents.Parent(p).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, rhs := range as.Rhs {
		if ast.Unparen(rhs) == p {
			_, isField := e.(*ast.SelectorExpr)
			return isField && sn.sameVar(as.Lhs[i], e) && types.ExprString(as.Lhs[i]) == types.ExprString(e.(ast.Expr))
		}
	}
	return false
}

// copiedTo reports whether storing the value e in lhs keeps the contents
// unchanged: lhs is a local whose own uses keep them.
func (sn *snapshots) copiedTo(lhs ast.Expr, e ast.Node) bool {
	if sn.handOut && sn.storesVisited(lhs) {
		return true // back into the field checked: its own uses decide
	}
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	v, ok := sn.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == v.Pkg().Scope() {
		return false
	}
	return sn.readOnly(v)
}

// sameVar reports whether a and b name the same field or variable.
func (sn *snapshots) sameVar(a ast.Expr, b ast.Node) bool {
	obj := func(n ast.Node) types.Object {
		switch n := n.(type) {
		case *ast.Ident:
			return sn.pass.TypesInfo.ObjectOf(n)
		case *ast.SelectorExpr:
			return sn.pass.TypesInfo.ObjectOf(n.Sel)
		}
		return nil
	}
	oa, ob := obj(ast.Unparen(a)), obj(b)
	return oa != nil && oa == ob
}

// elementKept reports whether the use of an element x.f[i] leaves the
// contents unchanged. A pointer element's pointee is not the field's
// contents. A struct element with its own lock covers its fields itself.
func (sn *snapshots) elementKept(parents *astq.Tree, ix *ast.IndexExpr, t types.Type) bool {
	if _, ok := t.Underlying().(*types.Map); ok {
		return !written(parents, ix)
	}
	p, _ := parents.Up(ix)
	if u, ok := p.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return sn.ownLock(t)
	}
	if written(parents, ix) {
		return false
	}
	if sel, ok := p.(*ast.SelectorExpr); ok {
		if _, isPtr := elemOf(t).Underlying().(*types.Pointer); isPtr {
			return true
		}
		if sn.ownLock(t) {
			return true
		}
		// x.f[i].g: the element's field, written or not.
		q, _ := parents.Up(sel)
		if _, ok := q.(*ast.SelectorExpr); ok {
			return false
		}
		if _, ok := q.(*ast.IndexExpr); ok {
			return false
		}
		if u, ok := q.(*ast.UnaryExpr); ok && u.Op == token.AND {
			return false
		}
		return !written(parents, sel)
	}
	return true
}

// written reports whether e is stored to: the left of an assignment, or
// incremented.
func written(parents *astq.Tree, e ast.Node) bool {
	p, e := parents.Up(e)
	switch p := p.(type) {
	case *ast.AssignStmt:
		for _, lhs := range p.Lhs {
			if lhs == e {
				return true
			}
		}
	case *ast.IncDecStmt:
		return true
	case *ast.RangeStmt:
		return p.Key == e || p.Value == e
	}
	return false
}

func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return t
}

// ownLock reports whether the elements of t are structs that carry their
// own lock: every field is a lock or is guarded itself.
func (sn *snapshots) ownLock(t types.Type) bool {
	st, ok := elemOf(t).Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	hasLock := false
	for i := 0; i < st.NumFields(); i++ {
		fv := st.Field(i)
		if isLock, _ := locks.IsLock(fv.Type()); isLock {
			hasLock = true
			continue
		}
		if !sn.dirs.Guard(fv).Guards() {
			return false
		}
	}
	return hasLock
}
