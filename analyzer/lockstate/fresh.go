package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Fresh objects stored inside other fresh objects stay fresh until the
// object holding them is published: a constructor may hand its new object
// to a helper that stores it in another new object, which the constructor
// then keeps in a field of the first (p.frag = newFrag(p)). The links are
// kept per function, not per program point: a link made anywhere publishes
// the stored object whenever its holder is published, which errs on the
// side of reporting.

// link records that y is stored inside x (x == nil: inside the object the
// function returns).
func (fa *funcAnalysis) link(x, y *types.Var) {
	if x == nil {
		if fa.retLinks == nil {
			fa.retLinks = map[*types.Var]bool{}
		}
		fa.retLinks[y] = true
		for _, z := range fa.links[y] {
			if !fa.retLinks[z] {
				fa.link(nil, z)
			}
		}
		return
	}
	if x == y || slices.Contains(fa.links[x], y) {
		return
	}
	if fa.links == nil {
		fa.links = map[*types.Var][]*types.Var{}
	}
	fa.links[x] = append(fa.links[x], y)
}

// publish marks v, and what is stored inside it, as no longer fresh.
func (fa *funcAnalysis) publish(s *State, v *types.Var) {
	if !s.fresh[v] {
		return
	}
	s.setFresh(v, false)
	for _, y := range fa.links[v] {
		fa.publish(s, y)
	}
}

// publishRoot publishes the local that e (x, x.f, x.arr[i], p.f) is
// inside, when its address is handed on and a field guarded by a lock can
// be reached through it: whoever gets &x.n can touch x.n. (The address of
// a part without such fields, like a reference counter handed to a leak
// checker, leaves the rest of x unpublished.)
func (fa *funcAnalysis) publishRoot(e ast.Expr, s *State) {
	if !fa.holdsGuarded(e) {
		return
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			if v, ok := fa.info.Uses[x].(*types.Var); ok && !isPackageLevel(v) {
				fa.publish(s, v)
			}
			return
		default:
			return
		}
	}
}

// holdsGuarded reports whether the location e (x, x.f, x.arr[i]) is or
// holds a field guarded by a lock: one on the way to it, or one inside
// it by value.
func (fa *funcAnalysis) holdsGuarded(e ast.Expr) bool {
	if fa.typeHoldsGuarded(fa.info.TypeOf(e), 0) {
		return true
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel := fa.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
				if g := fa.a.dirs.Guard(sel.Obj().(*types.Var)); g != nil && len(g.By) > 0 {
					return true
				}
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return false
		}
	}
}

// typeHoldsGuarded reports whether a value of type t has a field guarded
// by a lock in its own storage.
func (fa *funcAnalysis) typeHoldsGuarded(t types.Type, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if g := fa.a.dirs.Guard(u.Field(i)); g != nil && len(g.By) > 0 {
				return true
			}
			if fa.typeHoldsGuarded(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Array:
		return fa.typeHoldsGuarded(u.Elem(), depth+1)
	}
	return false
}

// pointInto makes p := &x (or &x.f, &x.arr[i], with x a fresh local) as
// fresh as x when a guarded field can be reached through it: each is
// published when the other is.
func (fa *funcAnalysis) pointInto(p *types.Var, rhs ast.Expr, s *State) {
	if v := fa.addrRoot(rhs); v != nil && v != p && s.fresh[v] && !isPackageLevel(v) && !fa.isParam(v) && fa.holdsGuarded(ast.Unparen(rhs).(*ast.UnaryExpr).X) {
		s.setFresh(p, true)
		fa.link(p, v)
		fa.link(v, p)
	}
}

// addrRoot returns x when e is &x, &x.f or &x.arr[i] (value steps only,
// or fields of what the pointer x points to): an address inside the
// object x names. Not through a pointer field or a slice: what they lead
// to is another object.
func (fa *funcAnalysis) addrRoot(e ast.Expr) *types.Var {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	e = u.X
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if sel := fa.info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			if _, isIdent := ast.Unparen(x.X).(*ast.Ident); astq.IsPointer(fa.info.TypeOf(x.X)) && !isIdent {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if !isArray(fa.info.TypeOf(x.X)) {
				return nil
			}
			e = x.X
		case *ast.Ident:
			v, _ := fa.info.Uses[x].(*types.Var)
			return v
		default:
			return nil
		}
	}
}

// freshVar returns the fresh local (or parameter, while summarising) e
// names, a fresh local whose method value e is (x.m holds x), or one e
// is an address inside (&x.mu).
func (fa *funcAnalysis) freshVar(e ast.Expr, s *State) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := fa.info.Uses[e].(*types.Var); ok && s.fresh[v] && !isPackageLevel(v) {
			return v
		}
	case *ast.SelectorExpr:
		if sel := fa.info.Selections[e]; sel != nil && sel.Kind() == types.MethodVal {
			return fa.freshVar(e.X, s)
		}
	case *ast.UnaryExpr:
		if v := fa.addrRoot(e); v != nil && s.fresh[v] && !isPackageLevel(v) {
			return v
		}
	}
	return nil
}

// freshRoot returns the fresh local an assignment target is inside:
// x.f, x.f.g, x.m[k] with x fresh.
func (fa *funcAnalysis) freshRoot(lhs ast.Expr, s *State) *types.Var {
	for steps := 0; ; steps++ {
		switch e := ast.Unparen(lhs).(type) {
		case *ast.SelectorExpr:
			if sel := fa.info.Selections[e]; sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			if astq.IsPointer(fa.info.TypeOf(e.X)) {
				if _, ok := ast.Unparen(e.X).(*ast.Ident); !ok {
					return nil
				}
			}
			lhs = e.X
		case *ast.IndexExpr:
			lhs = e.X
		case *ast.StarExpr:
			lhs = e.X
		case *ast.Ident:
			if v, ok := fa.info.Uses[e].(*types.Var); ok && steps > 0 && s.fresh[v] && !fa.isParam(v) && fa.pinned[v] == nil {
				return v
			}
			return nil
		default:
			return nil
		}
	}
}

// storeInto walks rhs, stored inside fresh x (nil: returned as the
// function's new result), linking the fresh objects it holds to x instead
// of publishing them. With newOnly, rhs must be a new object (x := &T{y}
// defines x); otherwise it may also be a fresh local (x.f = y). It reports
// false when rhs is not such a value.
func (fa *funcAnalysis) storeInto(x *types.Var, rhs ast.Expr, s *State, newOnly bool) bool {
	if !fa.a.fresh {
		return false
	}
	if y := fa.freshVar(rhs, s); y != nil && !newOnly {
		if _, ok := ast.Unparen(rhs).(*ast.Ident); ok {
			fa.link(x, y)
			fa.expr(rhs, s, useBase)
			return true
		}
	}
	e := ast.Unparen(rhs)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		if !fa.isAlloc(rhs) {
			return false
		}
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			if y := fa.freshVar(elt, s); y != nil {
				fa.link(x, y)
				fa.holdExpr(elt, s)
				continue
			}
			fa.expr(elt, s, useRead)
		}
		return true
	case *ast.CallExpr:
		if !fa.isAlloc(e) {
			return false
		}
		prevCall, prevTo := fa.linkCall, fa.linkTo
		fa.linkCall, fa.linkTo = e, x
		fa.expr(e, s, useRead)
		fa.linkCall, fa.linkTo = prevCall, prevTo
		return true
	}
	return false
}

// linkArg keeps a fresh argument fresh when the callee only stores it in
// the new object it returns, and that object is stored in a fresh object
// (or returned as this function's new result).
func (fa *funcAnalysis) linkArg(call *ast.CallExpr, callee *types.Func, i int, arg ast.Expr, s *State) bool {
	if call != fa.linkCall || callee == nil || !slices.Contains(fa.a.intoResult(callee), i) {
		return false
	}
	y := fa.freshVar(arg, s)
	if y == nil {
		return false
	}
	fa.link(fa.linkTo, y)
	fa.holdExpr(arg, s)
	return true
}

// holdExpr walks a fresh local, or a method value bound to one, that is
// being stored without publishing it.
func (fa *funcAnalysis) holdExpr(e ast.Expr, s *State) {
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		fa.expr(sel.X, s, useBase)
		return
	}
	fa.expr(e, s, useBase)
}

// intoResult lists the parameters fn only publishes by storing them in
// the new object it returns.
func (a *packageAnalysis) intoResult(fn *types.Func) []int {
	return summaryPart(a, fn, func(s *summary) []int { return s.intoResult }, func(e *Effects) []int { return e.IntoResult })
}

// freshResultOf reports whether fn returns a new object it has not
// published.
func (a *packageAnalysis) freshResultOf(info *types.Info, call *ast.CallExpr) bool {
	callee := typeutil.StaticCallee(info, call)
	if callee == nil || !a.fresh {
		return false
	}
	if callee.Pkg() == a.pass.Pkg {
		a.summaryOf(callee)
		if sum := a.summaries[callee.Origin()]; sum != nil {
			return sum.freshResult
		}
		return false
	}
	e := a.importedEffects(callee)
	return e != nil && e.FreshResult
}

// intoResultParams lists the parameters unpublished at every exit and
// stored in the returned object.
func (fa *funcAnalysis) intoResultParams(exits []*State) []int {
	if len(exits) == 0 || !fa.returned || !fa.freshResult {
		return nil
	}
	var out []int
	check := func(v *types.Var, i int) {
		if !fa.retLinks[v] {
			return
		}
		for _, ex := range exits {
			if !ex.fresh[v] {
				return
			}
		}
		out = append(out, i)
	}
	fa.eachParam(check)
	return out
}

// A fresh object stored in a guarded field (or a map or slice it holds)
// while this function holds that field's lock exclusively is out of other
// goroutines' reach until the lock is released: they need the lock to get
// at it (a.endpoints[k] = st under a.mu, then st's own fields set). It
// stays fresh for as long as that same acquisition lasts; it is never a
// new result, and storing into it publishes.
type pin struct {
	lock lockpath.Path
	site token.Pos // where the lock was taken: a new acquisition ends the pin
}

// pinStore keeps rhs fresh when it is a fresh local stored under the lock
// that guards lhs. It reports whether it did.
func (fa *funcAnalysis) pinStore(lhs, rhs ast.Expr, s *State) bool {
	if !fa.a.fresh {
		return false
	}
	id, ok := ast.Unparen(rhs).(*ast.Ident)
	if !ok {
		return false
	}
	y, ok := fa.info.Uses[id].(*types.Var)
	if !ok || !s.fresh[y] || fa.isParam(y) || isPackageLevel(y) {
		return false
	}
	sel := fa.guardedField(lhs, true)
	if sel == nil {
		return false
	}
	field, _ := fa.info.Selections[sel].Obj().(*types.Var)
	g := fa.a.dirs.Guard(field)
	if len(g.By) == 0 {
		return false
	}
	base := fa.res.Of(sel.X)
	if base.Valid() {
		base = base.Field(locks.ImplicitFields(fa.info.Selections[sel])...)
	}
	var held *pin
	for _, ref := range g.By {
		p := fa.guardLock(ref, base)
		v := s.Lock(p)
		if !p.Valid() || v.Mode != Exclusive {
			return false
		}
		held = &pin{lock: p, site: v.Site}
	}
	if held == nil {
		return false
	}
	if fa.pinned == nil {
		fa.pinned = map[*types.Var]*pin{}
	}
	if old := fa.pinned[y]; old == nil || *old == *held {
		fa.pinned[y] = held
		fa.expr(rhs, s, useBase) // the caller walks lhs
		return true
	}
	return false
}

// pinHolds reports whether v is not pinned, or its pin still holds.
func (fa *funcAnalysis) pinHolds(v *types.Var, s *State) bool {
	p := fa.pinned[v]
	if p == nil {
		return true
	}
	l := s.Lock(p.lock)
	return l.Mode == Exclusive && l.Site == p.site
}

// isPinned reports whether e names a pinned local.
func (fa *funcAnalysis) isPinned(e ast.Expr) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := fa.info.Uses[id].(*types.Var); ok {
			return fa.pinned[v] != nil
		}
	}
	return false
}
