package guardinfer

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
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
	if r.afterBarrier(a) {
		return true
	}
	return r.aroundRead(a, func(f *lockstate.Func, n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		return ok && ifs.Body.Pos() <= a.Pos && a.Pos < ifs.Body.End() && r.loadsAtomically(f, ifs.Cond, a.Base)
	})
}

// aroundRead reports whether found holds for one of the nodes that
// enclose a, a read on an object, in the body of the function it is made
// in (not in another closure of it).
func (r *inference) aroundRead(a *lockstate.Access, found func(f *lockstate.Func, n ast.Node) bool) bool {
	f := r.funcOf[a]
	if a.Write || f == nil || f.Decl == nil || !a.Base.Valid() {
		return false
	}
	body := f.Body()
	if body == nil {
		return false
	}
	hit := false
	ast.Inspect(body, func(n ast.Node) bool {
		if hit || n == nil || a.Pos < n.Pos() || a.Pos >= n.End() {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok && lit != f.Lit {
			return false // another function's body
		}
		hit = found(f, n)
		return !hit
	})
	return hit
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

// Reads after a barrier: once a double-checked initialiser of the object
// has run in this goroutine, its state is published to it (the fast path
// loaded it atomically, or the slow path set it under the lock):
//
//	t.unpack() // if t.loaded() { return }; t.mu.Lock(); ...
//	return t.methods
//
//	if !t.has(ready) {
//		t.resolve()
//	}
//	return t.size

// afterBarrier reports whether a, a read, follows such a barrier on its
// object in a block that holds it: a call of a method of the object whose
// body is a double-checked initialiser (barrierCall), or an if with no
// else whose condition loads the object atomically (if !t.has(ready), if
// t.state.Load() == 0) and whose body calls one of its methods.
func (r *inference) afterBarrier(a *lockstate.Access) bool {
	return r.aroundRead(a, func(f *lockstate.Func, n ast.Node) bool {
		blk, ok := n.(*ast.BlockStmt)
		if !ok {
			return false
		}
		for _, st := range blk.List {
			if st.End() > a.Pos {
				break // the statement that holds the access, and those after it
			}
			if r.isBarrier(f, st, a.Base) {
				return true
			}
		}
		return false
	})
}

// isBarrier reports whether statement st of f passes a barrier on the
// object at base.
func (r *inference) isBarrier(f *lockstate.Func, st ast.Stmt, base lockpath.Path) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		return r.barrierCall(f, st.X, base)
	case *ast.AssignStmt:
		return len(st.Rhs) == 1 && r.barrierCall(f, st.Rhs[0], base)
	case *ast.IfStmt:
		if st.Else != nil || st.Init != nil || !r.loadsAtomically(f, st.Cond, base) {
			return false
		}
		for _, call := range f.Calls {
			if se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr); ok && st.Body.Pos() <= call.Node.Pos() && call.Node.End() <= st.Body.End() && f.Resolver.Of(se.X) == base {
				return true // if !t.has(ready) { t.resolve() }
			}
		}
	}
	return false
}

// barrierCall reports whether e is a call, on the object at base, of a
// method that is a double-checked initialiser: its first statement returns
// when an atomic load of the receiver says the work is done, and the rest
// takes the receiver's lock.
func (r *inference) barrierCall(f *lockstate.Func, e ast.Expr, base lockpath.Path) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || f.Resolver.Of(se.X) != base {
		return false
	}
	fn, ok := r.pass.TypesInfo.Uses[se.Sel].(*types.Func)
	if !ok || fn.Pkg() != r.pass.Pkg {
		return false
	}
	fn = fn.Origin()
	if v, ok := r.barriers[fn]; ok {
		return v
	}
	r.barriers[fn] = false
	recv := fn.Type().(*types.Signature).Recv()
	fd := r.declOf(fn)
	if recv == nil || fd == nil || fd.Body == nil || len(fd.Body.List) < 2 {
		return false
	}
	first, ok := fd.Body.List[0].(*ast.IfStmt)
	if !ok || first.Else != nil || len(first.Body.List) == 0 {
		return false
	}
	if _, ret := first.Body.List[len(first.Body.List)-1].(*ast.ReturnStmt); !ret {
		return false
	}
	for _, g := range r.ls.Funcs {
		if g.Obj != fn || g.Lit != nil {
			continue
		}
		self := lockpath.Path{Root: recv}
		if !r.loadsAtomically(g, first.Cond, self) {
			return false
		}
		for _, op := range g.LockOps {
			if op.Lock.Root == types.Object(recv) && op.Node.Pos() > first.End() && (op.Op == locks.Lock || op.Op == locks.RLock) {
				r.barriers[fn] = true
				return true
			}
		}
	}
	return false
}
