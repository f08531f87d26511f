package guardedby

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// atomicCopies reports struct values copied, or assigned over, as a whole
// when the struct holds atomically accessed fields: fields marked
// //guard:atomic or +checkatomic, and fields of sync/atomic types. The
// copy reads every field with plain loads, and the assignment writes
// every field with plain stores, so the atomic field is read or written
// non-atomically. Only copies of memory other goroutines can reach count:
// *p, a field or element reached through a pointer or a slice, and
// package-level variables; a local struct value, a fresh composite
// literal and a function's result are the goroutine's own. Map elements
// are left out: they are not addressable, so no access to them is atomic.
func (c *checker) atomicCopies() {
	cache := map[fieldsKey][]atomicField{}
	for _, file := range c.pass.Files {
		for _, d := range file.Decls {
			var sc *objectScope
			if fd, ok := d.(*ast.FuncDecl); ok {
				sc = c.scopeOf(fd)
			}
			c.atomicCopiesIn(cache, sc, d)
		}
	}
}

// atomicCopiesIn checks one declaration (sc is nil outside functions).
func (c *checker) atomicCopiesIn(cache map[fieldsKey][]atomicField, sc *objectScope, decl ast.Decl) {
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN || n.Tok == token.DEFINE {
				if len(n.Lhs) == len(n.Rhs) {
					for i, lhs := range n.Lhs {
						if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" {
							continue // evaluated, not copied anywhere
						}
						c.copied(cache, sc, n.Rhs[i])
					}
				}
				if n.Tok == token.ASSIGN {
					for _, lhs := range n.Lhs {
						c.overwritten(cache, sc, lhs)
					}
				}
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				c.copied(cache, sc, v)
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				c.copied(cache, sc, r)
			}
		case *ast.SendStmt:
			c.copied(cache, sc, n.Value)
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				c.copied(cache, sc, e)
			}
		case *ast.CallExpr:
			if c.notEvaluated(n) {
				return false
			}
			for _, a := range n.Args {
				c.copied(cache, sc, a)
			}
			c.valueReceiver(cache, sc, n)
		}
		return true
	})
}

// notEvaluated reports unsafe.Sizeof, Alignof and Offsetof, whose
// operands are not evaluated.
func (c *checker) notEvaluated(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	b, ok := c.pass.TypesInfo.Uses[id.Sel].(*types.Builtin)
	return ok && (b.Name() == "Sizeof" || b.Name() == "Alignof" || b.Name() == "Offsetof")
}

// copied reports e if it copies shared memory holding atomic fields.
func (c *checker) copied(cache map[fieldsKey][]atomicField, sc *objectScope, e ast.Expr) {
	e = ast.Unparen(e)
	fields := c.sharedAtomics(cache, sc, e, false)
	if len(fields) == 0 {
		return
	}
	name := types.ExprString(e)
	c.rep.Reportf(e.Pos(), nil,
		"%s copied by value: the copy reads its atomic %s non-atomically; copy the fields one by one, loading %s with sync/atomic, or use a pointer instead of a copy",
		name, fieldList(fields), inner(fields))
}

// overwritten reports an assignment to shared memory holding atomic
// fields: it stores every field non-atomically.
func (c *checker) overwritten(cache map[fieldsKey][]atomicField, sc *objectScope, lhs ast.Expr) {
	lhs = ast.Unparen(lhs)
	fields := c.sharedAtomics(cache, sc, lhs, true)
	if len(fields) == 0 {
		return
	}
	c.rep.Reportf(lhs.Pos(), nil,
		"%s assigned by value: the assignment writes its atomic %s non-atomically; assign the fields one by one, storing %s with sync/atomic, or use a pointer instead of a copy",
		types.ExprString(lhs), fieldList(fields), inner(fields))
}

// sharedAtomics returns the atomic fields inside e, when e is shared
// memory copied or overwritten as a whole (not itself an atomic field,
// which its own accesses cover): written, or read when write is false.
func (c *checker) sharedAtomics(cache map[fieldsKey][]atomicField, sc *objectScope, e ast.Expr, write bool) []atomicField {
	if !c.shared(e) || c.atomicField(e) || c.ownObject(sc, e, true) {
		return nil
	}
	return c.atomicFieldsOf(cache, c.pass.TypesInfo.TypeOf(e), write)
}

// valueReceiver reports a method with a value receiver called on shared
// memory (p.M() copies *p, p.M() with M promoted from an embedded E
// copies p.E): the call copies the receiver.
func (c *checker) valueReceiver(cache map[fieldsKey][]atomicField, sc *objectScope, call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	s := c.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return
	}
	recv := s.Obj().Type().(*types.Signature).Recv()
	if recv == nil || types.IsInterface(recv.Type()) {
		return
	}
	if _, ptr := recv.Type().Underlying().(*types.Pointer); ptr {
		return
	}
	x := ast.Unparen(sel.X)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X) // (&v).M() copies v
	}
	name := types.ExprString(x)
	t := c.pass.TypesInfo.TypeOf(x)
	shared := c.shared(x)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		name, t, shared = "*"+name, p.Elem(), true
	}
	steps, ok := astq.Implicit(s)
	if !ok {
		return
	}
	for _, f := range steps { // through embedded fields
		shared = shared || astq.IsPointer(t)
		name, t = strings.TrimPrefix(name, "*")+"."+f.Name(), f.Type()
	}
	if _, ptr := t.Underlying().(*types.Pointer); ptr || !shared || c.atomicField(x) || c.ownObject(sc, x, true) {
		return
	}
	if fields := c.atomicFieldsOf(cache, t, false); len(fields) > 0 {
		c.reportReceiver(x, name, sel.Sel.Name, fields)
	}
}

func (c *checker) reportReceiver(x ast.Expr, name, method string, fields []atomicField) {
	c.rep.Reportf(x.Pos(), nil,
		"%s copied by value as the receiver of %s: the copy reads its atomic %s non-atomically; give %s a pointer receiver, or copy the fields one by one, loading %s with sync/atomic",
		name, method, fieldList(fields), method, inner(fields))
}

// shared reports whether e denotes memory other goroutines may reach:
// *p, a package-level variable, or a field or element of such memory or
// reached through a pointer or a slice.
func (c *checker) shared(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return true
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		return ok && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		if s := c.pass.TypesInfo.Selections[e]; s != nil {
			if s.Kind() != types.FieldVal {
				return false
			}
			if s.Indirect() {
				return true // through a pointer, explicit or embedded
			}
			return c.shared(e.X)
		}
		return c.shared(e.Sel) // pkg.Var
	case *ast.IndexExpr:
		switch c.pass.TypesInfo.TypeOf(e.X).Underlying().(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return c.shared(e.X)
		}
	}
	return false
}

// atomicField reports whether e is itself a //guard:atomic field or
// variable, whose plain accesses the access check reports.
func (c *checker) atomicField(e ast.Expr) bool {
	v, _ := c.pass.TypesInfo.Uses[astq.Name(e)].(*types.Var)
	g := c.dirs.Guard(v)
	return g != nil && g.Atomic
}

// atomicField is an atomically accessed field inside a struct value: its
// path from the struct's type (T.n, T.inner.n, T.arr[i].n) and from a
// value of it (n, inner.n).
type atomicField struct{ full, inner string }

type fieldsKey struct {
	t     types.Type
	write bool
}

// atomicFieldsOf lists the atomically accessed fields inside values of t.
// A field that is also //guard:by may be read under its lock, so reads
// (write false) leave it out; writes need an atomic store whatever is
// held.
func (c *checker) atomicFieldsOf(cache map[fieldsKey][]atomicField, t types.Type, write bool) []atomicField {
	if t == nil {
		return nil
	}
	k := fieldsKey{t, write}
	if fs, ok := cache[k]; ok {
		return fs
	}
	var out []atomicField
	var walk func(t types.Type, path string, depth int)
	walk = func(t types.Type, path string, depth int) {
		if depth > 8 {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Array:
			walk(u.Elem(), path+"[i]", depth+1)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i)
				inner := f.Name()
				if path != "" {
					inner = path + "." + inner
				}
				g := c.dirs.Guard(f)
				switch {
				case g != nil && g.Atomic:
					if write || len(g.By) == 0 {
						out = append(out, atomicField{inner: inner})
					}
				case isSyncAtomic(f.Type()):
					out = append(out, atomicField{inner: inner})
				default:
					walk(f.Type(), inner, depth+1)
				}
			}
		}
	}
	walk(t, "", 0)
	name := ""
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name = n.Obj().Name() + "."
	}
	for i := range out {
		out[i].full = name + out[i].inner
	}
	cache[k] = out
	return out
}

// isSyncAtomic reports the types of sync/atomic: Int32, Int64, Uint32,
// Uint64, Uintptr, Bool, Pointer[T] and Value.
func isSyncAtomic(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic"
}

// fieldList says "field T.n" or "fields T.n, T.m".
func fieldList(fs []atomicField) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.full)
	}
	if len(names) == 1 {
		return "field " + names[0]
	}
	return "fields " + strings.Join(names, ", ")
}

// inner says "n" or "n and inner.m".
func inner(fs []atomicField) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.inner)
	}
	return strings.Join(names, " and ")
}
