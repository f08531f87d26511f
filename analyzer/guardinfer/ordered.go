package guardinfer

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Reads ordered by an atomic load: the fast path of double-checked
// initialisation,
//
//	if t.has(ready) { // atomic.LoadUint32(&t.state)&ready != 0
//		return t.size
//	}
//	t.mu.Lock() ...
//
// where the writer sets the field under the lock and then publishes it
// with an atomic store. A plain read in the branch that an atomic load of
// the same object guards (in the condition itself, through an atomic
// field's Load, or in a method of the object whose body makes one) is
// ordered after that store: it is not a miss of the lock.

// orderedByAtomic reports whether a, a read, is in the then-branch of an
// if whose condition loads the accessed object's state atomically.
func (r *inference) orderedByAtomic(a *lockstate.Access) bool {
	f := r.funcOf[a]
	if a.Write || f == nil || f.Decl == nil || !a.Base.Valid() {
		return false
	}
	var body ast.Node = f.Decl.Body
	if f.Lit != nil {
		body = f.Lit.Body
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || a.Pos < n.Pos() || a.Pos >= n.End() {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok && lit != f.Lit {
			return false // another function's body
		}
		if ifs, ok := n.(*ast.IfStmt); ok && ifs.Body.Pos() <= a.Pos && a.Pos < ifs.Body.End() && r.loadsAtomically(f, ifs.Cond, a.Base) {
			found = true
		}
		return !found
	})
	return found
}

// loadsAtomically reports whether cond, in f, loads the object at base
// atomically: a sync/atomic access of one of its fields, Load of one of
// its atomic fields, or a call of one of its methods that does either on
// its receiver.
func (r *inference) loadsAtomically(f *lockstate.Func, cond ast.Expr, base lockpath.Path) bool {
	in := func(n ast.Node) bool { return cond.Pos() <= n.Pos() && n.End() <= cond.End() }
	for _, loaded := range atomicLoads(f, in) {
		if loaded == base {
			return true // atomic.LoadUint32(&t.state), t.ready.Load()
		}
	}
	for _, call := range f.Calls {
		if se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr); ok && in(call.Node) && r.loader(call.Callee) && f.Resolver.Of(se.X) == base {
			return true // t.has(bit)
		}
	}
	return false
}

// atomicLoads returns the objects f loads a field of atomically, in the
// nodes in selects: by a sync/atomic function (atomic.LoadUint32(&t.state))
// or by Load of an atomic field (t.ready.Load()).
func atomicLoads(f *lockstate.Func, in func(ast.Node) bool) []lockpath.Path {
	var out []lockpath.Path
	for _, b := range f.Candidates {
		if b.Atomic && !b.Write && in(b.Node) {
			out = append(out, b.Base)
		}
	}
	for _, call := range f.Calls {
		se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
		if !ok || !in(call.Node) || !atomicLoad(call.Callee) {
			continue
		}
		if fs, ok := ast.Unparen(se.X).(*ast.SelectorExpr); ok {
			out = append(out, f.Resolver.Of(fs.X))
		}
	}
	return out
}

// atomicLoad reports whether fn is the Load method of a sync/atomic type.
func atomicLoad(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Load" || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return false
	}
	return fn.Type().(*types.Signature).Recv() != nil
}

// loader reports whether fn is a method of this package whose body loads
// one of its receiver's fields atomically.
func (r *inference) loader(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != r.pass.Pkg {
		return false
	}
	fn = fn.Origin()
	if v, ok := r.loaders[fn]; ok {
		return v
	}
	r.loaders[fn] = false
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	everywhere := func(ast.Node) bool { return true }
	for _, f := range r.ls.Funcs {
		if f.Obj != fn || f.Lit != nil {
			continue
		}
		for _, loaded := range atomicLoads(f, everywhere) {
			if loaded.Root == types.Object(recv) {
				r.loaders[fn] = true
			}
		}
	}
	return r.loaders[fn]
}
