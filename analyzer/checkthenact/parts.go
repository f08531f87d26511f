package checkthenact

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// Parts of a struct-typed guarded field: which fields of it an access
// uses, so that reading one part and writing another is not acting on
// what was read.

// insideByValue reports whether the object at path in is part of the
// object at path o, by value: e.mu.state is inside e.mu when state is a
// struct field of e.mu, not when a pointer leads elsewhere (ch.ln.aq is
// the listener's, not ch's).
func insideByValue(o, in lockpath.Path) bool {
	if o.Root != in.Root || !strings.HasPrefix(in.Sel, o.Sel+".") {
		return false
	}
	t := o.Root.Type()
	for _, name := range strings.Split(strings.TrimPrefix(o.Sel, "."), ".") {
		if name == "" {
			break
		}
		if t = fieldType(t, name, true); t == nil {
			return false
		}
	}
	for _, name := range strings.Split(in.Sel[len(o.Sel)+1:], ".") {
		if strings.Contains(name, "[") {
			return false
		}
		if t = fieldType(t, name, false); t == nil {
			return false
		}
	}
	return true
}

// fieldType is the type of field name of struct type t, following a
// pointer to the struct only when deref is set.
func fieldType(t types.Type, name string, deref bool) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if !deref {
			return nil
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	if f := astq.Field(st, name); f != nil {
		return f.Type()
	}
	return nil
}

// subPaths returns the fields selected from a struct-typed guarded field
// at an access: ".capacity" for l.q.capacity, "" when the whole field is
// used. A method of this package called on the field uses the fields of
// its receiver it selects: l.q.isFull() reads .done and .capacity when
// isFull looks only at those.
func (c *checker) subPaths(parents *astq.Tree, n ast.Node) []string {
	sub := ""
	for {
		if ix, ok := parents.Parent(n).(*ast.IndexExpr); ok && ix.X == n {
			// One entry of a map: m[k] and m[j] are different entries
			// when k and j are different expressions.
			if _, isMap := c.pass.TypesInfo.TypeOf(n.(ast.Expr)).Underlying().(*types.Map); isMap {
				return []string{sub + "[" + types.ExprString(ix.Index) + "]"}
			}
		}
		p, ok := parents.Parent(n).(*ast.SelectorExpr)
		if !ok || p.X != n {
			return []string{sub}
		}
		sel := c.pass.TypesInfo.Selections[p]
		if sel == nil {
			return []string{sub}
		}
		if sel.Kind() == types.MethodVal {
			fn, _ := sel.Obj().(*types.Func)
			if fn == nil || len(sel.Index()) != 1 {
				return []string{sub}
			}
			parts := c.recvParts(fn.Origin())
			if parts == nil || parts.whole || len(parts.fields) == 0 {
				return []string{sub}
			}
			out := make([]string, len(parts.fields))
			for k, name := range parts.fields {
				out[k] = sub + "." + name
			}
			return out
		}
		if sel.Kind() != types.FieldVal {
			return []string{sub}
		}
		sub += "." + p.Sel.Name
		n = p
	}
}

// recvParts is what a method does with its receiver: the fields it
// selects, or the whole value when it uses the receiver any other way
// (passes it on, copies it, takes its address).
type recvParts struct {
	fields []string
	whole  bool
}

// recvParts returns the receiver fields a method of this package selects,
// following the methods it calls on the same receiver; nil when the body
// is not known.
func (c *checker) recvParts(fn *types.Func) *recvParts {
	if p, ok := c.parts[fn]; ok {
		return p
	}
	var decl *ast.FuncDecl
	for _, body := range c.funcs[fn] {
		if body.Lit == nil && body.Decl != nil && body.Decl.Body != nil {
			decl = body.Decl
			break
		}
	}
	sig, _ := fn.Type().(*types.Signature)
	if decl == nil || sig == nil || sig.Recv() == nil {
		c.parts[fn] = nil
		return nil
	}
	recv := sig.Recv()
	p := &recvParts{}
	// While this body is read, a method that calls back into it uses
	// the whole receiver: its parts are not known yet.
	c.parts[fn] = &recvParts{whole: true}
	defer func() { c.parts[fn] = p }()
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			p.fields = append(p.fields, name)
		}
	}
	parents := c.syntax.Tree(decl.Body)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || p.whole || c.pass.TypesInfo.Uses[id] != recv {
			return !p.whole
		}
		se, ok := parents.Parent(id).(*ast.SelectorExpr)
		if !ok || se.X != id {
			p.whole = true
			return false
		}
		sel := c.pass.TypesInfo.Selections[se]
		switch {
		case sel == nil:
			p.whole = true
		case sel.Kind() == types.FieldVal:
			add(sel.Obj().Name())
		case sel.Kind() == types.MethodVal && len(sel.Index()) == 1:
			m, _ := sel.Obj().(*types.Func)
			sub := (*recvParts)(nil)
			if m != nil {
				sub = c.recvParts(m.Origin())
			}
			if sub == nil || sub.whole {
				p.whole = true
				break
			}
			for _, name := range sub.fields {
				add(name)
			}
		default:
			p.whole = true
		}
		return false
	})
	return p
}

// disjoint reports whether two parts of a struct-typed field, or two
// entries of a map, do not overlap: .capacity and .pending are disjoint,
// .q and .q.n are not; [k] and [j] are, [k] and the whole map are not.
func disjoint(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return !strings.HasPrefix(a+".", b+".") && !strings.HasPrefix(b+".", a+".") && a != b
}

// sameField reports whether two events touch the same part of the same
// field instance.
func sameField(a, b event) bool {
	return a.field == b.field && a.base == b.base && !disjoint(a.sub, b.sub)
}
