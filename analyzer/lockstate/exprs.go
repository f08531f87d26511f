package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Expressions: how each use of a variable or field is recorded (read,
// write, through a pointer, atomic) with the lock state there.

type exprUse uint8

// derefUse is what a use of *p (p.f, p[i] for a pointer to an array) does
// to p.
func derefUse(u exprUse) exprUse {
	switch u {
	case useWrite:
		return useDeref
	case useAtomicRead, useAtomicWrite:
		return u
	}
	return useLoad
}

// valueUse is what a use of x.f (or x[i], x an array) does to x when x is a
// struct (array) value: writing, addressing or atomically accessing a part
// of x does the same to x.
func valueUse(u exprUse) exprUse {
	switch u {
	case useWrite, useAddr, useAtomicRead, useAtomicWrite:
		return u
	}
	return useBase
}

// expr walks an expression in evaluation order, recording accesses and
// applying the lock effects of the calls in it.
func (fa *funcAnalysis) expr(e ast.Expr, s *State, u exprUse) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		fa.expr(e.X, s, u)
	case *ast.Ident:
		fa.ident(e, s, u)
	case *ast.SelectorExpr:
		fa.selector(e, s, u)
	case *ast.IndexExpr:
		fa.index(e, s, u)
	case *ast.IndexListExpr:
	case *ast.StarExpr:
		fa.expr(e.X, s, derefUse(u))
	case *ast.UnaryExpr:
		fa.unary(e, s, u)
	case *ast.BinaryExpr:
		fa.expr(e.X, s, useBase)
		fa.expr(e.Y, s, useBase)
	case *ast.CallExpr:
		fa.call(e, s, false)
	case *ast.CompositeLit:
		_, isStruct := types.Unalias(fa.info.TypeOf(e)).Underlying().(*types.Struct)
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if !isStruct {
					fa.expr(kv.Key, s, useRead)
				}
				fa.expr(kv.Value, s, useRead)
				continue
			}
			fa.expr(elt, s, useRead)
		}
	case *ast.FuncLit:
		if !fa.isLocalLit[e] { // a local closure is analysed where it is called
			fa.closure(e, s, Escaping)
		}
	case *ast.KeyValueExpr:
		fa.expr(e.Value, s, useRead)
	case *ast.SliceExpr:
		fa.slice(e, s, u)
	case *ast.TypeAssertExpr:
		fa.expr(e.X, s, useRead)
	}
}

// index walks x[i]: the container as the element's use reaches it.
func (fa *funcAnalysis) index(e *ast.IndexExpr, s *State, u exprUse) {
	if tv, ok := fa.info.Types[e.X]; ok && tv.IsType() {
		return // generic instantiation
	}
	xu := useBase
	switch xt := fa.info.TypeOf(e.X); {
	case astq.IsPointer(xt): // p[i], p a pointer to an array
		xu = derefUse(u)
	case isArray(xt):
		xu = valueUse(u)
	case u == useWrite:
		xu = useWrite // element store writes the container
	}
	fa.expr(e.X, s, xu)
	fa.expr(e.Index, s, useRead)
}

// unary walks a unary expression: &x by what is done with the address,
// <-ch as a channel operation.
func (fa *funcAnalysis) unary(e *ast.UnaryExpr, s *State, u exprUse) {
	if e.Op == token.AND {
		switch u {
		case useDeref: // (&x.f).m() where m writes its receiver
			fa.expr(e.X, s, useWrite)
		case useBase, useLoad, useAddr: // compared, or read through
			fa.expr(e.X, s, useAddr)
		case useAtomicRead, useAtomicWrite:
			fa.expr(e.X, s, u)
		default: // &x.f stored, returned or passed on: may be written through
			fa.expr(e.X, s, useWrite)
			fa.publishRoot(e.X, s) // and x is reachable through it
		}
		return
	}
	fa.expr(e.X, s, useBase)
	if e.Op == token.ARROW {
		fa.chanOp(e, s)
	}
}

// slice walks x[lo:hi:max]: slicing an array aliases it, as &x does.
func (fa *funcAnalysis) slice(e *ast.SliceExpr, s *State, u exprUse) {
	switch xt := fa.info.TypeOf(e.X); {
	case isArray(xt) && u == useRead:
		// x.arr[:] handed on aliases x.arr, like &x.arr.
		fa.expr(e.X, s, useWrite)
	case isArray(xt):
		fa.expr(e.X, s, useAddr)
	case astq.IsPointer(xt): // p[:], p a pointer to an array
		if u == useRead {
			fa.expr(e.X, s, useDeref)
		} else {
			fa.expr(e.X, s, useLoad)
		}
	default:
		fa.expr(e.X, s, useBase)
	}
	for _, x := range []ast.Expr{e.Low, e.High, e.Max} {
		if x != nil {
			fa.expr(x, s, useRead)
		}
	}
}

func (fa *funcAnalysis) ident(id *ast.Ident, s *State, u exprUse) {
	fa.variable(id, id, s, u)
}

// variable handles a use of a variable, written as node: id itself, or
// pkg.id for another package's variable.
func (fa *funcAnalysis) variable(node ast.Expr, id *ast.Ident, s *State, u exprUse) {
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	fa.recordVar(id, v, u, s)
	if isPackageLevel(v) {
		if g := fa.a.dirs.Guard(v); g.Guards() {
			fa.record(&Access{Node: node, Pos: id.Pos(), Var: v, Guard: g, Write: u == useWrite}, s)
		}
		return
	}
	if u == useRead && s.fresh[v] {
		fa.publish(s, v) // copied, passed, stored or returned: published
	}
	if fa.pacc != nil && fa.final && fa.pacc.root(v) != nil {
		fa.pacc.note(v, fa.res.Of(id), u, s)
	}
	fa.addrUse(id, v, u, s)
	if src := fa.watched[v]; src != nil && fa.final && fa.rec != nil {
		fa.rec.RefUses = append(fa.rec.RefUses, &RefUse{Var: v, Node: node, Source: src, State: s.snapshot()})
	}
}

// recordVar records a use of a package-level or captured variable, or of
// a parameter of the declaration that refers to memory its caller can
// share (a pointer, slice or map), when the configuration asks for them
// (Func.Vars).
func (fa *funcAnalysis) recordVar(id *ast.Ident, v *types.Var, u exprUse, s *State) {
	if fa.final && fa.rec != nil && fa.a.vars && (isPackageLevel(v) || fa.a.captured(fa.decl)[v] || fa.a.refParams(fa.decl)[v]) {
		fa.rec.Vars = append(fa.rec.Vars, &VarAccess{Node: id, Var: v, Kind: varUse(u), State: s.snapshot()})
	}
}

func varUse(u exprUse) VarKind {
	switch u {
	case useWrite:
		return VarWrite
	case useDeref:
		return VarDeref
	case useAtomicRead, useAtomicWrite:
		return VarAtomic
	case useAddr:
		return VarAddrCompare
	}
	return VarRead
}

// refParams returns the parameters of a declaration (its receiver
// included) through which it can reach its caller's memory: pointers,
// slices and maps (computed once per declaration).
func (a *packageAnalysis) refParams(fd *ast.FuncDecl) map[*types.Var]bool {
	if p, ok := a.paramVars[fd]; ok {
		return p
	}
	p := map[*types.Var]bool{}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, name := range f.Names {
				if v, ok := a.pass.TypesInfo.Defs[name].(*types.Var); ok && astq.IsRef(v.Type()) {
					p[v] = true
				}
			}
		}
	}
	a.paramVars[fd] = p
	return p
}

// captured returns the locals of a declaration that one of its closures
// uses but does not declare, or that a go statement hands its goroutine as
// receiver or argument (computed once per declaration).
func (a *packageAnalysis) captured(fd *ast.FuncDecl) map[*types.Var]bool {
	if c, ok := a.capturedVars[fd]; ok {
		return c
	}
	c := map[*types.Var]bool{}
	local := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && !isPackageLevel(v) {
				c[v] = true
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			// go p.work(), go run(p): the goroutine gets p as a closure
			// would.
			if se, ok := ast.Unparen(g.Call.Fun).(*ast.SelectorExpr); ok {
				local(se.X)
			}
			for _, arg := range g.Call.Args {
				local(arg)
			}
		}
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && !isPackageLevel(v) &&
					(v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
					c[v] = true
				}
			}
			return true
		})
		return true // an inner closure captures its outer closure's locals too
	})
	a.capturedVars[fd] = c
	return c
}

func (fa *funcAnalysis) selector(e *ast.SelectorExpr, s *State, u exprUse) {
	if id, ok := e.X.(*ast.Ident); ok {
		if _, isPkg := fa.info.Uses[id].(*types.PkgName); isPkg {
			fa.variable(e, e.Sel, s, u) // pkg.Var
			return
		}
	}
	sel := fa.info.Selections[e]
	if sel == nil {
		return
	}
	if sel.Kind() != types.FieldVal {
		fa.expr(e.X, s, useRead) // method value: the receiver is copied
		return
	}
	// x.inner.f = v writes the struct-valued field x.inner; p.f = v writes
	// what p points to.
	var xu exprUse
	if astq.IsPointer(fa.info.TypeOf(e.X)) {
		xu = derefUse(u)
		if field, _ := sel.Obj().(*types.Var); xu == useDeref && fa.a.dirs.Guard(field).Guards() {
			// A field with a guard of its own is checked against that
			// guard; writing it is not also a write of what p points into.
			xu = useLoad
		}
	} else {
		xu = valueUse(u)
	}
	fa.expr(e.X, s, xu)
	fa.fieldAccess(e, sel, s, u == useWrite, false)
}

// markDeepWrite notes, for inference, the field whose pointee an
// assignment writes: x.p in x.p.f = v or *x.p = v. That is a mutation of
// the field's state, as a map insert through it is, and counts as a write
// of it (only syntactic stores: a method called through x.p may or may not
// write, and a logger's would not).
func (fa *funcAnalysis) markDeepWrite(lhs ast.Expr) {
	if fa.rec == nil || !fa.a.dirs.Config.Infer() {
		return
	}
	var ptr ast.Expr
	for e := ast.Unparen(lhs); ptr == nil; {
		switch x := e.(type) {
		case *ast.StarExpr:
			ptr = ast.Unparen(x.X)
		case *ast.SelectorExpr:
			if sel := fa.info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return
			}
			if astq.IsPointer(fa.info.TypeOf(x.X)) {
				ptr = ast.Unparen(x.X)
				continue
			}
			e = ast.Unparen(x.X) // x.inner.f = v writes x.inner itself
		default:
			return
		}
	}
	if se, ok := ptr.(*ast.SelectorExpr); ok {
		if sel := fa.info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
			if fa.deepWrites == nil {
				fa.deepWrites = map[*ast.SelectorExpr]bool{}
			}
			fa.deepWrites[se] = true
		}
	}
}

func (fa *funcAnalysis) fieldAccess(e *ast.SelectorExpr, sel *types.Selection, s *State, write, atomic bool) {
	field, _ := sel.Obj().(*types.Var)
	g := fa.a.dirs.Guard(field)
	candidate := false
	if !g.Guards() {
		if !fa.a.dirs.Config.Infer() || g != nil || !fa.final || fa.rec == nil || !(fa.a.holderHasLock(sel) || fa.a.parentHasLock(e) || fa.a.hasPackageLock()) {
			return
		}
		candidate = true
	}
	base := fa.res.Of(e.X)
	if base.Valid() {
		base = base.Field(locks.ImplicitFields(sel)...)
	}
	if g.Guards() && fa.a.dirs.ForcedAt(fa.a.pass.Fset, e.Sel.Pos()) {
		fa.force(g, base, s, e.Sel.Pos())
	}
	acc := &Access{Node: e, Pos: e.Sel.Pos(), Var: field, Guard: g, Base: base,
		Write: write, Atomic: atomic, Fresh: fa.isFresh(e.X, s)}
	if candidate {
		acc.Write = acc.Write || fa.deepWrites[e]
		acc.State = s.snapshot()
		fa.rec.Candidates = append(fa.rec.Candidates, acc)
		return
	}
	fa.record(acc, s)
}

// guardLock resolves a field guard's lock for a field of the struct at
// base (a package-level lock needs no base), by its canonical name.
func (fa *funcAnalysis) guardLock(ref directives.LockRef, base lockpath.Path) lockpath.Path {
	switch {
	case ref.Kind == directives.Global:
		if v := fa.a.dirs.Global(ref); v != nil {
			return fa.canon(lockpath.Path{Root: v, Sel: ref.Sel})
		}
	case base.Valid():
		return fa.canon(lockpath.Path{Root: base.Root, Sel: base.Sel + ref.Sel})
	}
	return lockpath.Path{}
}

// force applies +checklocksforce: the locks the guard names are held from
// this access on. Their site is the forced line, which says they are held
// for a reason the code does not show (the caller's), not taken here.
func (fa *funcAnalysis) force(g *directives.FieldGuard, base lockpath.Path, s *State, at token.Pos) {
	for _, ref := range g.By {
		if p := fa.guardLock(ref, base); p.Valid() && s.Lock(p).Mode != Exclusive {
			s.set(p, LockVal{Mode: Exclusive, Site: at})
		}
	}
}

// hasPackageLock reports whether the package declares a package-level
// lock: under inference, the fields of its lock-free structs are then
// candidates too, since such a lock may guard them.
func (a *packageAnalysis) hasPackageLock() bool {
	if a.pkgLock == 0 {
		a.pkgLock = -1
		if len(locks.PackageLocks(a.pass.Pkg)) > 0 {
			a.pkgLock = 1
		}
	}
	return a.pkgLock > 0
}

// holderHasLock is locks.HolderHasLock, remembered per struct for the
// package: inference asks it at every field access.
func (a *packageAnalysis) holderHasLock(sel *types.Selection) bool {
	h := astq.Holder(sel)
	if h == nil {
		return false
	}
	st, _ := astq.StructOf(h)
	if st == nil {
		return false
	}
	if v, ok := a.lockHolders[st]; ok {
		return v
	}
	if a.lockHolders == nil {
		a.lockHolders = map[*types.Struct]bool{}
	}
	v := locks.HasLockField(st)
	a.lockHolders[st] = v
	return v
}

// parentHasLock is locks.ParentHasLock with holderHasLock's memory.
func (a *packageAnalysis) parentHasLock(e *ast.SelectorExpr) bool {
	in, ok := ast.Unparen(e.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := a.pass.TypesInfo.Selections[in]
	return sel != nil && sel.Kind() == types.FieldVal && a.holderHasLock(sel)
}

func (fa *funcAnalysis) record(acc *Access, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	acc.State = s.snapshot()
	fa.rec.Accesses = append(fa.rec.Accesses, acc)
}

// mapEntry records a delete or a store of m[k] when m's values are or
// hold locks.
func (fa *funcAnalysis) mapEntry(n ast.Node, m, k, v ast.Expr, s *State) {
	if !fa.final || fa.rec == nil {
		return
	}
	mt, ok := fa.info.TypeOf(m).Underlying().(*types.Map)
	if !ok || !holdsLock(mt.Elem()) {
		return
	}
	fa.rec.MapEntries = append(fa.rec.MapEntries, &MapEntry{Node: n, Map: m, Key: k, Value: v, State: s.snapshot()})
}

// holdsLock reports whether a value of type t is a lock (or a pointer to
// one), or a struct, or a pointer to a struct, with a lock field.
func holdsLock(t types.Type) bool {
	if lock, _ := locks.IsLock(t); lock {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if lock, _ := locks.IsLock(st.Field(i).Type()); lock {
			return true
		}
	}
	return false
}

func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}
