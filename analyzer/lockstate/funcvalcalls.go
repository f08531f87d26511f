package lockstate

// Releases through function values: unlock := mu.Unlock; ...; unlock(),
// and cu := cleanup.Make(mu.Unlock); defer cu.Clean(); ...; cu.Clean().
// A local that holds a method value releasing a lock (mu.Unlock,
// mu.RUnlock, or a method whose effect or contract releases locks in its
// receiver), directly or inside a value a function keeps it in (FuncVals
// Keeps), releases that lock where it is called or handed to a function
// that runs it (FuncVals Runs). What a local holds is collected once per
// declaration, closures included (they call what the function's locals
// hold); a local is left alone when anything else is assigned to it, when
// a call clears what it holds without running it (cu.Release()), or when
// it is handed to a function not known to leave its values alone.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// fvLocals is what each local of a declaration holds: the method values
// that release locks, or nil when what it holds is not known.
type fvLocals map[*types.Var][]*ast.SelectorExpr

// fvBindings returns the function values the locals of fa's declaration
// hold.
func (fa *funcAnalysis) fvBindings() fvLocals {
	if b, ok := fa.a.fvBound[fa.decl]; ok {
		return b
	}
	b := fa.a.bindFuncVals(fa.decl)
	fa.a.fvBound[fa.decl] = b
	return b
}

// fvBinder collects what a declaration's locals hold.
type fvBinder struct {
	a       *packageAnalysis
	info    *types.Info
	out     fvLocals
	unknown map[*types.Var]bool // locals that may hold something else
}

// bindFuncVals collects what a declaration's locals hold.
func (a *packageAnalysis) bindFuncVals(decl *ast.FuncDecl) fvLocals {
	if decl.Body == nil || !a.hasReleaseValue(decl.Body) {
		return nil // every value a local can hold starts as such a method value
	}
	b := &fvBinder{a: a, info: a.pass.TypesInfo, out: fvLocals{}, unknown: map[*types.Var]bool{}}
	for range 2 { // locals bound from locals bound later in the walk
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				b.assign(n)
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if v := b.local(name); v != nil && len(n.Values) == len(n.Names) {
						b.bind(v, b.values(n.Values[i]))
					}
				}
			case *ast.RangeStmt: // for _, f := range fns
				if v := b.local(n.Value); v != nil {
					b.bind(v, b.values(n.X))
				}
			case *ast.CallExpr:
				b.call(n)
			case *ast.GoStmt:
				if v := b.local(n.Call.Fun); v != nil {
					b.unknown[v] = true // runs on another goroutine
				}
			}
			return true
		})
	}
	for v := range b.unknown {
		delete(b.out, v)
	}
	return b.out
}

// local returns the local variable e names, if it can hold a function
// value.
func (b *fvBinder) local(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := b.info.ObjectOf(id).(*types.Var)
	if v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || !holdsFuncs(v.Type(), nil) {
		return nil
	}
	return v
}

// values returns the release values e carries: a releasing method value,
// a bound local, elements of a literal or of append, an element, or what
// a function keeps of its arguments in its result.
func (b *fvBinder) values(e ast.Expr) []*ast.SelectorExpr {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if b.a.releasingMethodValue(x) {
			return []*ast.SelectorExpr{x}
		}
	case *ast.Ident:
		if v := b.local(x); v != nil {
			return b.out[v]
		}
	case *ast.IndexExpr: // fns[0]
		return b.values(x.X)
	case *ast.CompositeLit: // []func(){mu.Unlock}
		var vs []*ast.SelectorExpr
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			vs = append(vs, b.values(el)...)
		}
		return vs
	case *ast.CallExpr:
		return b.callValues(x)
	}
	return nil
}

func (b *fvBinder) callValues(x *ast.CallExpr) []*ast.SelectorExpr {
	var vs []*ast.SelectorExpr
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "append" {
		if _, isBuiltin := b.info.Uses[id].(*types.Builtin); isBuiltin {
			for _, arg := range x.Args {
				vs = append(vs, b.values(arg)...)
			}
			return vs
		}
	}
	callee := typeutil.StaticCallee(b.info, x)
	cv := b.a.funcValsOf(callee)
	if cv == nil {
		return nil
	}
	nparams := callee.Type().(*types.Signature).Params().Len()
	for _, f := range cv.Keeps {
		if f.To == nparams {
			vs = append(vs, b.values(argAt(b.info, x, f.From))...)
		}
	}
	return vs
}

// bind adds vs to what v holds; a binding of nothing known makes v
// unknown.
func (b *fvBinder) bind(v *types.Var, vs []*ast.SelectorExpr) {
	if len(vs) == 0 {
		b.unknown[v] = true
		return
	}
	for _, s := range vs {
		if !containsSel(b.out[v], s) {
			b.out[v] = append(b.out[v], s)
		}
	}
}

func (b *fvBinder) assign(as *ast.AssignStmt) {
	for i, lhs := range as.Lhs {
		v := b.local(lhs)
		if v == nil {
			continue
		}
		if len(as.Lhs) != len(as.Rhs) {
			b.unknown[v] = true
			continue
		}
		b.bind(v, b.values(as.Rhs[i]))
	}
	// A local stored elsewhere may be called from there.
	for _, rhs := range as.Rhs {
		if v := b.local(rhs); v != nil && len(as.Lhs) == len(as.Rhs) {
			if _, isID := ast.Unparen(as.Lhs[0]).(*ast.Ident); !isID {
				b.unknown[v] = true
			}
		}
	}
}

// call notes a call that keeps release values in a local (cu.Add(mu.Unlock)),
// clears a local's values without running them (cu.Release()), or hands a
// local to a function that is not known to run or keep its values.
func (b *fvBinder) call(call *ast.CallExpr) {
	info := b.info
	callee := typeutil.StaticCallee(info, call)
	if callee == nil {
		for _, arg := range call.Args {
			if v := b.local(arg); v != nil {
				b.unknown[v] = true
			}
		}
		return
	}
	cv := b.a.funcValsOf(callee)
	nparams := callee.Type().(*types.Signature).Params().Len()
	known := map[int]bool{}
	if cv != nil {
		for _, j := range cv.Runs {
			known[j] = true
		}
		for _, f := range cv.Keeps {
			known[f.From] = true
			if f.To >= nparams {
				continue
			}
			known[f.To] = true
			if v := b.local(argAt(info, call, f.To)); v != nil {
				if vs := b.values(argAt(info, call, f.From)); len(vs) > 0 {
					b.bind(v, vs)
				}
			}
		}
		for _, j := range cv.Clears {
			if v := b.local(argAt(info, call, j)); v != nil {
				b.unknown[v] = true
			}
		}
	}
	params := []int{directives.Receiver}
	for j := range call.Args {
		params = append(params, j)
	}
	for _, j := range params {
		arg := argAt(info, call, j)
		if v := b.local(arg); v != nil && !known[j] && b.a.mayKeepOrRun(callee, j, arg) {
			b.unknown[v] = true
		}
	}
}

// mayKeepOrRun reports whether handing arg to callee's parameter j can
// change or run what it holds, as far as the callee's FuncVals do not
// say: a pointer (or a method with a pointer receiver on an addressable
// local) can be written through.
func (a *packageAnalysis) mayKeepOrRun(callee *types.Func, j int, arg ast.Expr) bool {
	if callee.Pkg() != nil && callee.Pkg() == a.pass.Pkg && a.decls[callee] != nil {
		return false // its FuncVals were computed from its body: nothing else happens
	}
	if a.funcValsOf(callee) != nil {
		return false // the other package's summary says what happens
	}
	t := a.pass.TypesInfo.TypeOf(arg)
	if j == directives.Receiver {
		if recv := callee.Type().(*types.Signature).Recv(); recv != nil {
			t = recv.Type()
		}
	}
	if t == nil {
		return true
	}
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		return true
	}
	_, isFunc := t.Underlying().(*types.Signature)
	return isFunc
}

func containsSel(list []*ast.SelectorExpr, s *ast.SelectorExpr) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasReleaseValue reports whether n takes a releasing method value
// anywhere (not as the function of a call).
func (a *packageAnalysis) hasReleaseValue(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				// The method called is no value; its receiver and
				// arguments may hold one.
				found = a.hasReleaseValue(se.X)
				for _, arg := range n.Args {
					found = found || a.hasReleaseValue(arg)
				}
				return false
			}
		case *ast.SelectorExpr:
			found = a.releasingMethodValue(n)
		}
		return !found
	})
	return found
}

// releasingMethodValue reports whether x is a method value that releases
// locks in its receiver when called: mu.Unlock, mu.RUnlock, or c.unlock
// whose contract or effect releases only locks inside c.
func (a *packageAnalysis) releasingMethodValue(x *ast.SelectorExpr) bool {
	sel := a.pass.TypesInfo.Selections[x]
	if sel == nil || sel.Kind() != types.MethodVal {
		return false
	}
	if lc, ok := locks.AsCall(a.pass.TypesInfo, &ast.CallExpr{Fun: x}); ok {
		return lc.Op == locks.Unlock || lc.Op == locks.RUnlock
	}
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return false
	}
	op, _ := a.receiverEffect(fn)
	return op == locks.Unlock || op == locks.RUnlock
}

// runFuncVals applies, at call, the releases of the function values it
// runs: the local called (unlock()), or the locals handed to the callee's
// parameters it runs (cu.Clean()). It reports whether call called a local.
func (fa *funcAnalysis) runFuncVals(call *ast.CallExpr, callee *types.Func, s *State, deferred bool) bool {
	var bound fvLocals
	if callee == nil || fa.a.funcValsOf(callee) != nil {
		bound = fa.fvBindings()
	}
	var vals []*ast.SelectorExpr
	called := false
	if callee == nil {
		if v := fvLocal(fa.info, call.Fun); v != nil {
			vals, called = bound[v], bound[v] != nil
		}
	} else if cv := fa.a.funcValsOf(callee); cv != nil {
		for _, j := range cv.Runs {
			arg := argAt(fa.info, call, j)
			if x, ok := ast.Unparen(arg).(*ast.SelectorExpr); ok && fa.a.releasingMethodValue(x) {
				vals = append(vals, x) // run(mu.Unlock)
			} else if v := fvLocal(fa.info, arg); v != nil {
				vals = append(vals, bound[v]...)
			}
		}
	}
	if len(vals) == 0 {
		return called
	}
	var paths []lockpath.Path
	var reads []bool
	for _, x := range vals {
		for p, read := range fa.releasedBy(x) {
			paths, reads = append(paths, p), append(reads, read)
		}
	}
	apply := func(st *State, deferred bool) {
		for i, p := range paths {
			fa.setOrDefer(st, p, LockVal{Mode: NotHeld, Read: reads[i], Site: call.Pos()}, deferred)
		}
	}
	apply(s, deferred)
	if deferred {
		fa.addDefer(call, s, func(st *State) { apply(st, false) }, func(*State, *Func) {})
	}
	return called
}

// fvLocal returns the local an expression names (through & and parens).
func fvLocal(info *types.Info, e ast.Expr) *types.Var {
	if e == nil {
		return nil
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok {
		e = u.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

// releasedBy returns the locks the method value x releases when called
// here, each with whether it is a read release.
func (fa *funcAnalysis) releasedBy(x *ast.SelectorExpr) map[lockpath.Path]bool {
	out := map[lockpath.Path]bool{}
	call := &ast.CallExpr{Fun: x}
	if lc, ok := locks.AsCall(fa.info, call); ok {
		if p := fa.canon(fa.res.LockOf(lc)); p.Valid() {
			out[p] = lc.Op == locks.RUnlock
		}
	}
	// A lock type's own Unlock also releases what its body releases
	// inside the value (gVisor's sync.Mutex wraps another), as lockCall
	// applies; a helper method releases what its effect says.
	fn, _ := fa.info.Selections[x].Obj().(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "sync" {
		return out
	}
	for _, c := range []*directives.Contract{fa.a.dirs.Contract(fn), fa.a.effectsOf(fn)} {
		if c == nil {
			continue
		}
		for _, r := range c.Releases {
			if p := fa.refAtCall(r, call, fn); p.Valid() {
				out[p] = false
			}
		}
		for _, r := range c.RReleases {
			if p := fa.refAtCall(r, call, fn); p.Valid() {
				out[p] = true
			}
		}
	}
	return out
}
