// Package lockpath names lock instances and guarded objects by access path:
// a root variable (receiver, parameter, local or package-level var) followed
// by field selections, such as c.mu or c.inner.mu. Two expressions denote
// the same instance when they have the same path after local aliases are
// substituted (d := c; d.mu is c.mu). Paths print as source, never as
// pointers or SSA names, so messages are stable from run to run.
package lockpath

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Path is a canonical access path. It is comparable and used as a map key.
type Path struct {
	Root types.Object // *types.Var: local, parameter, receiver, result or package-level
	Sel  string       // ".f.g" and "[0]" parts, embedded fields made explicit
}

// Valid reports whether p names something.
func (p Path) Valid() bool { return p.Root != nil }

// MaxParts bounds the selector parts of a path the engine derives from
// another one (a lock fact moved by an assignment, a callee's path mapped
// into the caller). Source expressions never come near it; without it an
// assignment cycle in a loop (n.owner = s; s.last = n) would grow paths
// like s.last.owner.last.owner.mu without end.
const MaxParts = 12

// Parts counts p's selector parts: fields and indexes.
func (p Path) Parts() int {
	return len(splitSel(p.Sel))
}

// Field extends p by field names.
func (p Path) Field(names ...string) Path {
	for _, n := range names {
		p.Sel += "." + n
	}
	return p
}

// String renders p as source: c.mu, pkg.Mu.
func (p Path) String() string {
	if p.Root == nil {
		return "?"
	}
	name := p.Root.Name()
	if isPackageLevel(p.Root) {
		name = p.Root.Pkg().Name() + "." + name
	}
	return name + p.Sel
}

// Local renders p for use inside the root's own package (no qualifier).
func (p Path) Local(from *types.Package) string {
	if p.Root == nil {
		return "?"
	}
	if isPackageLevel(p.Root) && p.Root.Pkg() != from {
		return p.String()
	}
	return p.Root.Name() + p.Sel
}

// HasPrefix reports whether q is p or a path below p.
func (p Path) HasPrefix(q Path) bool {
	return p.Root == q.Root && (p.Sel == q.Sel || strings.HasPrefix(p.Sel, q.Sel+".") || strings.HasPrefix(p.Sel, q.Sel+"["))
}

func isPackageLevel(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// Resolver computes paths inside one function body. It substitutes local
// aliases: a variable defined once from a path whose own root is never
// reassigned, and that the body never stores into (nor into a path it
// goes through), is replaced by that path.
type Resolver struct {
	Info    *types.Info
	assigns map[*types.Var]int      // definitions + assignments; &v counts as many
	defs    map[*types.Var]ast.Expr // the defining expression of single-assignment vars
	tuples  map[*types.Var]*ast.AssignStmt
	// stores are the assignment targets other than plain variables
	// (h.p = x, *q = x, m[k] = x): a path through one of them may name
	// another object after the store.
	stores []ast.Expr
	alias  map[*types.Var]Path // the variables that stand for a path, and the path (see aliases)
	body   *ast.BlockStmt
}

// NewResolver scans body (and params, which count as defined once).
func NewResolver(info *types.Info, body *ast.BlockStmt) *Resolver {
	r := &Resolver{Info: info, assigns: map[*types.Var]int{}, defs: map[*types.Var]ast.Expr{}, tuples: map[*types.Var]*ast.AssignStmt{}, body: body}
	if body == nil {
		return r
	}
	note := func(id *ast.Ident, rhs ast.Expr) {
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok {
			return
		}
		r.assigns[v]++
		if rhs != nil {
			r.defs[v] = rhs
		} else {
			delete(r.defs, v)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok {
					r.stores = append(r.stores, lhs)
					continue
				}
				var rhs ast.Expr
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					rhs = n.Rhs[i]
				}
				note(id, rhs)
				if n.Tok == token.DEFINE && len(n.Rhs) == 1 && len(n.Lhs) > 1 {
					if v, ok := info.Defs[id].(*types.Var); ok {
						r.tuples[v] = n // v, err := f()
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var rhs ast.Expr
				if len(n.Names) == len(n.Values) {
					rhs = n.Values[i]
				}
				note(id, rhs)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					note(id, nil)
					note(id, nil) // per-iteration: never an alias
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				note(id, nil)
				note(id, nil)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok {
						r.assigns[v] += 2 // address taken: may change anywhere
					}
				}
			}
		}
		return true
	})
	r.aliases()
	return r
}

// TupleDef returns the statement v, w := f() that defines id's variable,
// and id's index among its results, when the variable is never assigned
// again.
func (r *Resolver) TupleDef(id *ast.Ident) (*ast.AssignStmt, int) {
	v, ok := r.Info.ObjectOf(id).(*types.Var)
	if !ok || r.assigns[v] != 1 {
		return nil, -1
	}
	as := r.tuples[v]
	if as == nil {
		return nil, -1
	}
	for i, lhs := range as.Lhs {
		if l, ok := lhs.(*ast.Ident); ok && r.Info.Defs[l] == v {
			return as, i
		}
	}
	return nil, -1
}

// Stable reports whether v always holds the value it was first given in
// this function, so a path rooted at it names one instance throughout: a
// parameter never assigned, or a local defined once from one expression
// (v := e, var v = e). A local defined by a multi-value assignment
// (x, err := f()) or declared without a value is not (see TupleDef).
func (r *Resolver) Stable(v *types.Var) bool { return r.stable(v) }

// stable reports whether v always holds the value it was first given in
// this function: a parameter never assigned, or a local defined once.
func (r *Resolver) stable(v *types.Var) bool {
	if isPackageLevel(v) {
		return false
	}
	n := r.assigns[v]
	if _, isDef := r.defs[v]; isDef {
		return n == 1
	}
	return n == 0
}

// Def returns the expression a variable was defined from when it is never
// reassigned, or nil.
func (r *Resolver) Def(id *ast.Ident) ast.Expr {
	v, _ := r.Info.ObjectOf(id).(*types.Var)
	return r.DefOf(v)
}

// DefOf is Def for the variable itself.
func (r *Resolver) DefOf(v *types.Var) ast.Expr {
	if v == nil || !r.stable(v) {
		return nil
	}
	return r.defs[v]
}

// Of returns the path of e, or an invalid Path when e is not a path
// (a call result, a map lookup with a computed key, ...).
func (r *Resolver) Of(e ast.Expr) Path {
	return r.of(e, 0, false)
}

// of computes e's path. With basic, aliases are substituted without
// asking whether the body stores into what they stand for (see aliases).
func (r *Resolver) of(e ast.Expr, depth int, basic bool) Path {
	if depth > 16 {
		return Path{}
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := r.Info.ObjectOf(e).(*types.Var)
		if !ok || v.IsField() {
			return Path{}
		}
		if !basic {
			if p, ok := r.alias[v]; ok {
				return p
			}
			return Path{Root: v}
		}
		if q := r.defPath(v, depth, true); q.Valid() {
			return q
		}
		return Path{Root: v}
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, isPkg := r.Info.ObjectOf(id).(*types.PkgName); isPkg {
				if v, ok := r.Info.ObjectOf(e.Sel).(*types.Var); ok {
					return Path{Root: v}
				}
				return Path{}
			}
		}
		sel := r.Info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return Path{}
		}
		base := r.of(e.X, depth+1, basic)
		if !base.Valid() {
			return Path{}
		}
		return base.Field(locks.ImplicitFields(sel)...).Field(e.Sel.Name)
	case *ast.StarExpr:
		return r.of(e.X, depth+1, basic)
	case *ast.CallExpr:
		// (*T)(s), where T and s's type share one struct: the same
		// object seen through another type, whose fields (and locks) are
		// s's own.
		if len(e.Args) == 1 && sameStorage(r.Info, e) {
			return r.of(e.Args[0], depth+1, basic)
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.of(e.X, depth+1, basic)
		}
	case *ast.IndexExpr:
		base := r.of(e.X, depth+1, basic)
		if !base.Valid() {
			return Path{}
		}
		if tv, ok := r.Info.Types[e.Index]; ok && tv.Value != nil {
			return Path{Root: base.Root, Sel: base.Sel + "[" + tv.Value.ExactString() + "]"}
		}
		if id, ok := ast.Unparen(e.Index).(*ast.Ident); ok {
			if v, ok := r.Info.ObjectOf(id).(*types.Var); ok && r.stable(v) {
				return Path{Root: base.Root, Sel: base.Sel + "[" + id.Name + "]"}
			}
		}
	}
	return Path{}
}

// ownsLock reports whether a value of type t has a lock in its own storage:
// it is a lock, or a struct or array with one inline (not behind a pointer
// or an interface). A variable of such a type defined from another value
// (mu := c.mu, d := *c) holds a copy of that lock, so it is not an alias:
// locking the copy protects nothing in the original.
func ownsLock(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if lock, _ := locks.IsLock(t); lock {
			return true
		}
		for i := 0; i < u.NumFields(); i++ {
			if ownsLock(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return ownsLock(u.Elem())
	}
	return false
}

// defPath returns the path v was defined from, when v can stand for it:
// v is defined once, from a path whose root is never reassigned, and v's
// value does not hold a lock of its own (see ownsLock). It returns an
// invalid Path otherwise.
func (r *Resolver) defPath(v *types.Var, depth int, basic bool) Path {
	def, ok := r.defs[v]
	if !ok || !r.stable(v) || ownsLock(v.Type()) {
		return Path{}
	}
	q := r.of(def, depth+1, basic)
	if !q.Valid() || !(isPackageLevel(q.Root) || r.stable(q.Root.(*types.Var))) {
		return Path{}
	}
	return q
}

// aliases decides, once, the path each variable defined from a path
// stands for. A variable is not an alias when the body stores into the
// path it was defined from, or into a path that one goes through
// (d := h.p with h.p = other), where the store can reach a use of the
// variable: d may then name another object than h.p does. A store after
// the last use, outside any loop around a use, leaves d the alias it was
// until then. Variables are decided in source order, so a definition
// sees the decisions for the variables it uses.
func (r *Resolver) aliases() {
	vars := make([]*types.Var, 0, len(r.defs))
	for v := range r.defs {
		vars = append(vars, v)
	}
	slices.SortFunc(vars, func(a, b *types.Var) int { return cmp.Compare(a.Pos(), b.Pos()) })
	r.alias = map[*types.Var]Path{}
	for _, v := range vars {
		q := r.defPath(v, 0, false)
		if !q.Valid() {
			continue
		}
		if b := r.defPath(v, 0, true); b.Valid() && r.storedWhileUsed(v, b) {
			continue
		}
		r.alias[v] = q
	}
}

// storedWhileUsed reports whether the body stores into p, or into a path
// p goes through, at a point from which a use of v can follow: before a
// use in the source, or after one inside a loop around both that does
// not also define v. Uses inside closures and deferred calls (whose lock
// operation runs at the return), and goto, could come after any store:
// any store counts then.
func (r *Resolver) storedWhileUsed(v *types.Var, p Path) bool {
	var stores []ast.Expr
	for _, lhs := range r.stores {
		if q := r.of(lhs, 0, true); q.Valid() && p.HasPrefix(q) {
			stores = append(stores, lhs)
		}
	}
	if len(stores) == 0 {
		return false
	}
	var uses []ast.Node
	var loops []ast.Node
	anywhere := false
	var walk func(n ast.Node, inLit bool)
	walk = func(n ast.Node, inLit bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				if m != n {
					walk(m.Body, true)
					return false
				}
			case *ast.DeferStmt:
				walk(m.Call, true)
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				loops = append(loops, m)
			case *ast.BranchStmt:
				if m.Tok == token.GOTO {
					anywhere = true
				}
			case *ast.Ident:
				if r.Info.Uses[m] == types.Object(v) {
					uses = append(uses, m)
					anywhere = anywhere || inLit
				}
			}
			return true
		})
	}
	walk(r.body, false)
	if anywhere {
		return true
	}
	within := func(outer, inner ast.Node) bool { return outer.Pos() <= inner.Pos() && inner.End() <= outer.End() }
	for _, st := range stores {
		for _, u := range uses {
			if st.Pos() < u.Pos() {
				return true
			}
			for _, l := range loops {
				if within(l, st) && within(l, u) && !(l.Pos() <= v.Pos() && v.Pos() < l.End()) {
					return true
				}
			}
		}
	}
	return false
}

// LockOf returns the normalised path of the lock operated on by a lock call.
func (r *Resolver) LockOf(c locks.Call) Path {
	p := r.Of(c.Receiver)
	if !p.Valid() {
		return p
	}
	return p.Field(c.Implicit...)
}

// Owner is the object a lock or field path belongs to: c for c.mu, c.in
// for c.in.mu.
func (p Path) Owner() Path {
	segs := splitSel(p.Sel)
	if len(segs) == 0 {
		return p
	}
	last := segs[len(segs)-1]
	cut := len(last)
	if !strings.HasPrefix(last, "[") {
		cut++ // and its dot
	}
	p.Sel = p.Sel[:len(p.Sel)-cut]
	return p
}

// sameStorage reports whether call is a conversion that keeps its operand's
// memory: between pointer types whose base types have identical
// underlying structs, as in type ackHandler Stream;
// (*Stream)(h).complete(). A path through it names the operand's fields.
// A conversion of a struct value is a copy, so it is not one.
func sameStorage(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsType() {
		return false
	}
	from := info.TypeOf(call.Args[0])
	if from == nil {
		return false
	}
	p, ok := tv.Type.Underlying().(*types.Pointer)
	q, ok2 := from.Underlying().(*types.Pointer)
	if !ok || !ok2 {
		return false
	}
	_, isStruct := p.Elem().Underlying().(*types.Struct)
	return isStruct && types.Identical(p.Elem().Underlying(), q.Elem().Underlying())
}
