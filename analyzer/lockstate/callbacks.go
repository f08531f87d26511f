package lockstate

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Callbacks run in place: a function literal passed to a function that
// only calls its function parameter, before it returns (labels.Range(f),
// a package's forEach), runs with the caller's locks and on the caller's
// goroutine, as one passed to sort.Slice does. That is decided from the
// callee's body, in its own package, and carried to others in the
// ParamTable fact (ParamSummary.Sync), which every package exports, with
// or without directives: a syntax scan.

// syncParams lists the parameters of function type that fd's body only
// calls, directly (not from a closure, not in a go statement) and never
// otherwise uses (stores, returns, hands on), in a body that takes no
// lock of its own.
func syncParams(info *types.Info, fd *ast.FuncDecl) []int {
	if fd.Body == nil {
		return nil
	}
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return nil
	}
	return syncParamsOf(info, fn.Type().(*types.Signature), fd.Body)
}

// litSyncParam reports whether a function literal called through a local
// (exec := func(run func() error) error { ... run() ... }; exec(func()
// error {...})) only calls its parameter i in place, as syncParams says
// of a declared function.
func litSyncParam(info *types.Info, lit *ast.FuncLit, i int) bool {
	sig, ok := info.TypeOf(lit).(*types.Signature)
	return ok && slices.Contains(syncParamsOf(info, sig, lit.Body), i)
}

// syncParamsOf is syncParams for a signature and the body it belongs to.
func syncParamsOf(info *types.Info, sig *types.Signature, body *ast.BlockStmt) []int {
	if takesLocks(info, body) {
		return nil // withLock(mu, f): f runs under locks its caller does not see
	}
	var out []int
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if _, ok := p.Type().Underlying().(*types.Signature); !ok || p.Name() == "" || p.Name() == "_" || sig.Variadic() && i == sig.Params().Len()-1 {
			continue
		}
		if onlyCalledInPlace(info, body, p) {
			out = append(out, i)
		}
	}
	return out
}

// takesLocks reports whether body (closures included) locks or unlocks
// anything, through a lock method or a sync.Locker.
func takesLocks(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if _, ok := locks.AsCall(info, call); ok {
			found = true
		} else if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			found = locks.IsOpName(se.Sel.Name)
		}
		return !found
	})
	return found
}

// onlyCalledInPlace reports whether every use of p in body is the
// function of a call made in body itself, outside closures and go
// statements, and there is at least one.
func onlyCalledInPlace(info *types.Info, body *ast.BlockStmt, p *types.Var) bool {
	called := map[*ast.Ident]bool{}
	uses, ok := 0, true
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(x ast.Node) bool {
			if !ok {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncLit:
				walk(x.Body, true)
				return false
			case *ast.GoStmt:
				walk(x.Call, true)
				return false
			case *ast.CallExpr:
				if id, isID := ast.Unparen(x.Fun).(*ast.Ident); isID && !nested {
					called[id] = true
				}
			case *ast.Ident:
				if info.Uses[x] == types.Object(p) {
					uses++
					ok = called[x]
				}
			}
			return true
		})
	}
	walk(body, false)
	return ok && uses > 0
}

// syncParam reports whether fn runs a function literal passed as its
// parameter i in place (syncParams), from its declaration in this package
// or its package's fact.
func (a *packageAnalysis) syncParam(fn *types.Func, i int) bool {
	if fn == nil || i < 0 {
		return false
	}
	fn = fn.Origin()
	if fn.Pkg() != a.pass.Pkg {
		sum := a.importedAccess(fn)
		return sum != nil && slices.Contains(sum.Sync, i)
	}
	fd := a.decls[fn]
	if fd == nil {
		return false
	}
	if a.syncs == nil {
		a.syncs = map[*types.Func][]int{}
	}
	got, ok := a.syncs[fn]
	if !ok {
		got = syncParams(a.pass.TypesInfo, fd)
		a.syncs[fn] = got
	}
	return slices.Contains(got, i)
}

// asyncParam reports whether fn, a function of this package, runs a
// function literal passed as its parameter i in a goroutine of its own
// (s.startGoRoutine(func() {...}), whose body is go func() { ... f() }()),
// decided from its body: the literal then starts with no lock held, on
// another goroutine, as one passed to time.AfterFunc does.
func (a *packageAnalysis) asyncParam(fn *types.Func, i int) bool {
	if fn == nil || i < 0 {
		return false
	}
	fn = fn.Origin()
	fd := a.decls[fn]
	if fd == nil || fd.Body == nil {
		return false
	}
	if a.asyncs == nil {
		a.asyncs = map[*types.Func]int{}
	}
	got, ok := a.asyncs[fn]
	if !ok {
		got = -1
		if p, starts := goroutines.StartsParam(a.pass.TypesInfo, fd); starts {
			got = p
		}
		a.asyncs[fn] = got
	}
	return got == i
}

// inPlaceFuncs returns the indexes of call's arguments that name a
// function of this package without calling it (s.removeOldest, a method
// value, or a function f) and go to a parameter callee runs in place: the
// named function runs there, under the caller's locks.
func (fa *funcAnalysis) inPlaceFuncs(call *ast.CallExpr, callee *types.Func) []int {
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if sel := fa.info.Selections[se]; sel != nil && sel.Kind() == types.MethodExpr {
			return nil // (*T).m(x, f): arguments and parameters do not line up
		}
	}
	var out []int
	for i, arg := range call.Args {
		if namedFunc(fa.info, arg) == nil {
			continue
		}
		if isSynchronousCallback(callee) || fa.a.syncParam(callee, i) {
			out = append(out, i)
		}
	}
	return out
}

// namedFunc returns the function of this package's or another's that an
// expression names without calling it: a method value x.m or a function
// f (not a method expression T.m, whose receiver is an argument).
func namedFunc(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[e.Sel].(*types.Func) // pkg.F
		return fn
	}
	return nil
}

// NamedFunc is namedFunc for the rules: the function an argument in
// Call.InPlace names.
func NamedFunc(info *types.Info, e ast.Expr) *types.Func { return namedFunc(info, e) }
