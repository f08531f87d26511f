package guardedby

// Which objects other goroutines can be updating, for the atomic-copy
// check: the question is about one object, not its type. A copy of
// memory holding atomic fields is a race only when another goroutine can
// be storing to those fields at the time: the object's address reached a
// goroutine that may still run, a field of a shared object or a package
// variable. So these are the goroutine's own, and not reported:
//
//   - an object this function made (&T{}, new(T), or the result of a
//     function of the package that returns a new object it has not
//     published) and has not stored anywhere another goroutine can reach,
//     nor handed to a goroutine that may still be running at the copy
//     (goroutines.Spawn.Concurrent: the copy comes before the go
//     statement, or after the goroutine is joined);
//   - a package-level variable nothing in the package writes or takes the
//     address of (a prototype, copied to make new values).
//
// Parameters, receivers and anything else of unknown origin may be shared,
// as before.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
)

// objectScope is what the check knows of the declaration it is in.
type objectScope struct {
	decl   *ast.FuncDecl
	spawns []*goroutines.Spawn // computed on first use
	found  bool
	origin summaries.Verdicts[*types.Var] // a new object never stored away
}

// rootVar returns the variable e reaches its memory through: p for *p,
// p.f.g, p.arr[i]; nil when it starts elsewhere (a call, a map element).
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				if s == nil { // pkg.Var
					v, _ := info.Uses[x.Sel].(*types.Var)
					return v
				}
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if _, isMap := info.TypeOf(x.X).Underlying().(*types.Map); isMap {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// ownObject reports whether the memory e denotes is this goroutine's own
// at e (see the file comment); package-level variables count only with
// globals (an unexported one the package never writes: another package
// cannot write it either).
func (c *checker) ownObject(sc *objectScope, e ast.Expr, globals bool) bool {
	v := rootVar(c.pass.TypesInfo, e)
	if v == nil || v.Pkg() != c.pass.Pkg {
		return false
	}
	if v.Parent() == v.Pkg().Scope() {
		return globals && !v.Exported() && !c.globalWritten(v)
	}
	if sc == nil || sc.decl == nil || v.Pos() < sc.decl.Body.Pos() || v.Pos() >= sc.decl.Body.End() {
		return false // a parameter or receiver: the caller's object
	}
	if !c.newUnstored(sc, v) {
		return false
	}
	for _, s := range c.spawnsOf(sc) {
		if spawnUses(c.pass.TypesInfo, s, v) && s.Concurrent(e.Pos()) {
			return false
		}
	}
	return true
}

// scopeOf returns the objectScope of a declaration, one per declaration.
func (c *checker) scopeOf(decl *ast.FuncDecl) *objectScope {
	if decl == nil || decl.Body == nil {
		return nil
	}
	if c.scopes == nil {
		c.scopes = map[*ast.FuncDecl]*objectScope{}
	}
	sc := c.scopes[decl]
	if sc == nil {
		sc = &objectScope{decl: decl}
		c.scopes[decl] = sc
	}
	return sc
}

func (c *checker) spawnsOf(sc *objectScope) []*goroutines.Spawn {
	if !sc.found {
		sc.found = true
		for _, b := range goroutines.Find(c.pass.TypesInfo, sc.decl) {
			sc.spawns = append(sc.spawns, b.Spawns...)
		}
	}
	return sc.spawns
}

// spawnUses reports whether a goroutine start hands v over: its function
// literal or its call's arguments mention v.
func spawnUses(info *types.Info, s *goroutines.Spawn, v *types.Var) bool {
	uses := false
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			uses = true
		}
		return !uses
	})
	return uses
}

// newUnstored reports whether every value local v holds is a new object
// made here (&T{}, new(T), a fresh result of the package) and v is never
// stored where another goroutine could reach it: assigned to anything
// but a local, put in a composite literal, sent, appended, or captured by
// a closure that is not a goroutine start (those are checked by
// Concurrent).
func (c *checker) newUnstored(sc *objectScope, v *types.Var) bool {
	if sc.origin == nil {
		sc.origin = summaries.Verdicts[*types.Var]{}
	}
	if yes, ok := sc.origin.Known(v); ok {
		return yes
	}
	info := c.pass.TypesInfo
	assigned, ok := 0, true
	isV := func(e ast.Expr) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && info.ObjectOf(id) == v
	}
	var spawnLits map[*ast.FuncLit]bool
	for _, s := range c.spawnsOf(sc) {
		if s.Lit != nil {
			if spawnLits == nil {
				spawnLits = map[*ast.FuncLit]bool{}
			}
			spawnLits[s.Lit] = true
		}
	}
	ast.Inspect(sc.decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if isV(lhs) {
					assigned++
					ok = ok && c.newValue(n.Rhs, i, len(n.Lhs))
				}
			}
			for k, rhs := range n.Rhs {
				if mentions(info, rhs, v) && !isV(n.Lhs[min(k, len(n.Lhs)-1)]) {
					ok = ok && len(n.Lhs) == len(n.Rhs) && localIdent(info, n.Lhs[k])
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v {
					assigned++
					ok = ok && len(n.Values) > 0 && c.newValue(n.Values, i, len(n.Names))
				}
			}
		case *ast.RangeStmt:
			ok = ok && !isV(n.Key) && !isV(n.Value)
		case *ast.SendStmt:
			ok = ok && !mentions(info, n.Value, v)
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, isKV := el.(*ast.KeyValueExpr); isKV {
					el = kv.Value
				}
				ok = ok && !mentions(info, el, v)
			}
		case *ast.CallExpr:
			ok = ok && !c.handedOn(n, v)
		case *ast.FuncLit:
			if !spawnLits[n] && mentions(info, n, v) && !calledInPlace(sc.decl.Body, n) {
				ok = false // kept for later, perhaps on another goroutine
			}
		}
		return true
	})
	return sc.origin.Settle(v, ok && assigned > 0)
}

// handedOn reports whether a call may publish v: v (or a part of it) is
// an argument or the receiver of a function not known to keep it to
// itself (its Effects' NoEscape, for the package's functions), or an
// element appended.
func (c *checker) handedOn(call *ast.CallExpr, v *types.Var) bool {
	info := c.pass.TypesInfo
	if id, isID := ast.Unparen(call.Fun).(*ast.Ident); isID {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			if b.Name() != "append" {
				return false // len, cap, copy, delete...: nothing is kept
			}
			for _, a := range call.Args[min(1, len(call.Args)):] {
				if mentions(info, a, v) {
					return true
				}
			}
			return false
		}
	}
	if tv, ok := info.Types[ast.Unparen(call.Fun)]; ok && tv.IsType() {
		return false // a conversion
	}
	callee := typeutil.StaticCallee(info, call)
	if callee != nil && callee.Pkg() != nil && callee.Pkg().Path() == "sync/atomic" {
		return false // an atomic operation keeps no pointer
	}
	kept := func(i int) bool {
		if callee == nil {
			return false
		}
		eff := c.ls.Effects[callee.Origin()]
		return eff != nil && slices.Contains(eff.NoEscape, i)
	}
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if sel := info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal && mentions(info, se.X, v) && !kept(directives.Receiver) {
			return true
		}
	}
	for i, a := range call.Args {
		if mentions(info, a, v) && !kept(i) {
			return true
		}
	}
	return false
}

// newValue reports whether the i-th of n values assigned from rhs is a
// new object: &T{...}, new(T), or a call of the package's that returns
// one.
func (c *checker) newValue(rhs []ast.Expr, i, n int) bool {
	var e ast.Expr
	switch {
	case len(rhs) == n:
		e = rhs[i]
	case len(rhs) == 1 && i == 0: // p, err := load()
		e = rhs[0]
	default:
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		_, isLit := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && isLit
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
				return b.Name() == "new"
			}
		}
		callee := typeutil.StaticCallee(c.pass.TypesInfo, x)
		if callee == nil {
			return false
		}
		eff := c.ls.Effects[callee.Origin()]
		return eff != nil && eff.FreshResult
	}
	return false
}

// globalWritten reports whether the package writes package-level v, or
// takes its address, anywhere but in its declaration.
func (c *checker) globalWritten(v *types.Var) bool {
	if c.globalWrites == nil {
		c.globalWrites = map[*types.Var]bool{}
		info := c.pass.TypesInfo
		mark := func(e ast.Expr) {
			if w := rootVar(info, e); w != nil && w.Parent() == w.Pkg().Scope() {
				c.globalWrites[w] = true
			}
		}
		for _, file := range c.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE {
						for _, lhs := range n.Lhs {
							mark(lhs)
						}
					}
				case *ast.IncDecStmt:
					mark(n.X)
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						mark(n.X)
					}
				case *ast.SelectorExpr:
					// x.M() with a pointer receiver takes x's address.
					if s := info.Selections[n]; s != nil && s.Kind() == types.MethodVal {
						if _, ptr := s.Obj().Type().(*types.Signature).Recv().Type().Underlying().(*types.Pointer); ptr && !s.Indirect() {
							mark(n.X)
						}
					}
				}
				return true
			})
		}
	}
	return c.globalWrites[v]
}

// localIdent reports whether e names a variable local to a function.
func localIdent(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

func mentions(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// calledInPlace reports whether lit is called where it is written
// (func(){...}(), defer func(){...}()).
func calledInPlace(body *ast.BlockStmt, lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && ast.Unparen(call.Fun) == lit {
			found = true
		}
		return !found
	})
	return found
}
