package lockstate

// What a function does with the function values it is handed: which of its
// parameters' function values it calls (Runs), and which it keeps in what
// it returns or in another parameter's pointee (Keeps). gVisor's cleanup
// package is the shape: Make(f) returns a Cleanup that keeps f, Add(f)
// keeps f in its receiver, Clean runs what its receiver keeps. A caller
// that writes cu := cleanup.Make(mu.Unlock) ... cu.Clean() releases mu at
// cu.Clean() (see funcvalcalls.go). The summary is syntactic, so it costs
// a walk of the functions whose parameters can hold function values, and
// travels to other packages in a FuncValTable.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
)

// FuncValTable is a package fact (a facttable): the FuncVals of the
// package's exported functions and methods that have one.
type FuncValTable struct {
	facttable.Table[FuncVals]
}

func (*FuncValTable) AFact() {}

func (t *FuncValTable) String() string {
	return t.Format("funcvaltable", func(v FuncVals) string { return v.String() })
}

// FuncVals is what a function does with the function values its
// parameters hold (directives.Receiver for the receiver).
type FuncVals struct {
	// Runs lists the parameters whose function values the function calls:
	// f(), p.fns[i](), for _, f := range p.fns { f() }, or handing them on
	// to a function that runs them.
	Runs []int
	// Keeps lists where it keeps a parameter's function values: in its
	// result (To is the number of parameters plus the result's index) or
	// in the pointee of another parameter (To is that parameter).
	Keeps []Flow
	// Clears lists the parameters whose pointee it writes without running
	// their function values (c.fns = nil in a Release): what a caller knew
	// such a value holds is not known after the call.
	Clears []int
}

// Flow is a function value's way from parameter From to To.
type Flow struct{ From, To int }

func (v FuncVals) empty() bool { return len(v.Runs)+len(v.Keeps)+len(v.Clears) == 0 }

func (v FuncVals) String() string {
	s := ""
	if len(v.Runs) > 0 {
		s += fmt.Sprintf("runs%v", v.Runs)
	}
	for _, f := range v.Keeps {
		s += fmt.Sprintf(" keeps %d->%d", f.From, f.To)
	}
	if len(v.Clears) > 0 {
		s += fmt.Sprintf(" clears%v", v.Clears)
	}
	return s
}

// funcValsOf returns fn's FuncVals, computed for this package's functions,
// read from its package's FuncValTable for others; nil if it does nothing
// with function values.
func (a *packageAnalysis) funcValsOf(fn *types.Func) *FuncVals {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() != a.pass.Pkg {
		return a.importedFV.Lookup(fn.Pkg(), LocalKey(fn))
	}
	if v, ok := a.funcVals[fn]; ok {
		return v
	}
	fd := a.decls[fn]
	if fd == nil || !holdsFuncValues(fn.Type().(*types.Signature)) {
		a.funcVals[fn] = nil
		return nil
	}
	a.funcVals[fn] = nil // recursion: nothing known yet
	v := a.summariseFuncVals(fd, fn)
	if v.empty() {
		return nil
	}
	a.funcVals[fn] = &v
	return &v
}

// summariseFuncVals walks fd's body: the locals that hold a parameter's
// values (fns := p.fns, for _, f := range fns), then the calls that run
// them, the returns and stores that keep them, and the writes that clear
// them.
func (a *packageAnalysis) summariseFuncVals(fd *ast.FuncDecl, fn *types.Func) FuncVals {
	info := a.pass.TypesInfo
	sig := fn.Type().(*types.Signature)
	owner := map[*types.Var]int{}
	for obj, i := range directives.ParamIndex(sig) {
		if v, ok := obj.(*types.Var); ok && holdsFuncs(v.Type(), nil) {
			owner[v] = i
		}
	}
	if len(owner) == 0 {
		return FuncVals{}
	}
	from := func(e ast.Expr) (int, bool) {
		v := valueRoot(info, e)
		i, ok := owner[v]
		return i, ok && v != nil
	}
	derive := func(lhs, rhs ast.Expr) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || !holdsFuncs(v.Type(), nil) {
			return
		}
		if i, ok := from(rhs); ok {
			if _, had := owner[v]; !had {
				owner[v] = i
			}
		}
	}
	for range 2 { // chains of locals: fns := p.fns; f := fns[0]
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						derive(n.Lhs[i], n.Rhs[i])
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						derive(e, n.X)
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i := range n.Names {
						derive(n.Names[i], n.Values[i])
					}
				}
			}
			return true
		})
	}
	var out FuncVals
	w := &fvWalk{a: a, info: info, sig: sig, from: from, out: &out}
	w.walk(fd.Body)
	slices.Sort(out.Runs)
	out.Runs = slices.Compact(out.Runs)
	slices.Sort(out.Clears)
	out.Clears = slices.Compact(out.Clears)
	slices.SortFunc(out.Keeps, func(x, y Flow) int {
		if x.From != y.From {
			return x.From - y.From
		}
		return x.To - y.To
	})
	out.Keeps = slices.Compact(out.Keeps)
	// A parameter whose values are run is not merely cleared.
	out.Clears = slices.DeleteFunc(out.Clears, func(i int) bool { return slices.Contains(out.Runs, i) })
	return out
}

// fvWalk collects a body's FuncVals.
type fvWalk struct {
	a    *packageAnalysis
	info *types.Info
	sig  *types.Signature
	from func(ast.Expr) (int, bool)
	out  *FuncVals
	lazy map[*ast.AssignStmt]bool // see lazyInits
}

func (w *fvWalk) walk(body ast.Node) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs later, if at all (called in place: see call)
		case *ast.GoStmt:
			for _, arg := range n.Call.Args {
				w.walk(arg) // evaluated here; the call runs on another goroutine
			}
			return false
		case *ast.CallExpr:
			w.call(n)
		case *ast.ReturnStmt:
			nparams := w.sig.Params().Len()
			for r, e := range n.Results {
				for _, i := range w.carried(e) {
					w.out.Keeps = append(w.out.Keeps, Flow{From: i, To: nparams + r})
				}
			}
		case *ast.AssignStmt:
			w.assign(n)
		case *ast.IfStmt:
			w.lazyInits(n)
		}
		return true
	})
}

// lazyInits notes the stores of if x == nil { x = ... }: they replace
// nothing, so they clear nothing.
func (w *fvWalk) lazyInits(n *ast.IfStmt) {
	be, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return
	}
	x := be.X
	if id, ok := ast.Unparen(be.X).(*ast.Ident); ok && id.Name == "nil" {
		x = be.Y
	} else if id, ok := ast.Unparen(be.Y).(*ast.Ident); !ok || id.Name != "nil" {
		return
	}
	for _, st := range n.Body.List {
		if as, ok := st.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && types.ExprString(as.Lhs[0]) == types.ExprString(x) {
			if w.lazy == nil {
				w.lazy = map[*ast.AssignStmt]bool{}
			}
			w.lazy[as] = true
		}
	}
}

// call notes a call that runs a parameter's values: the value itself
// called, or handed to a function that runs, keeps or clears it.
func (w *fvWalk) call(call *ast.CallExpr) {
	fun := ast.Unparen(call.Fun)
	if lit, ok := fun.(*ast.FuncLit); ok {
		w.walk(lit.Body) // called in place, or deferred: it runs here
		return
	}
	callee := typeutil.StaticCallee(w.info, call)
	if callee == nil {
		if i, ok := w.from(fun); ok {
			w.out.Runs = append(w.out.Runs, i)
		}
		return
	}
	cv := w.a.funcValsOf(callee)
	if cv == nil {
		return
	}
	arg := func(j int) ast.Expr { return argAt(w.info, call, j) }
	for _, j := range cv.Runs {
		if i, ok := w.from(arg(j)); ok {
			w.out.Runs = append(w.out.Runs, i)
		}
	}
	for _, j := range cv.Clears {
		if i, ok := w.from(arg(j)); ok {
			w.out.Clears = append(w.out.Clears, i)
		}
	}
	nparams := callee.Type().(*types.Signature).Params().Len()
	for _, f := range cv.Keeps {
		if f.To >= nparams {
			continue // into the result: see carried
		}
		to, ok := w.from(arg(f.To))
		if !ok {
			continue
		}
		for _, i := range w.carried(arg(f.From)) {
			if i != to {
				w.out.Keeps = append(w.out.Keeps, Flow{From: i, To: to})
			}
		}
	}
}

// assign notes stores into a parameter's pointee: of another parameter's
// values (p.fns = append(p.fns, f)), a keep; of anything else, a clear.
func (w *fvWalk) assign(as *ast.AssignStmt) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for k, lhs := range as.Lhs {
		if _, isID := ast.Unparen(lhs).(*ast.Ident); isID {
			continue // a local or the parameter itself: nothing outside changes
		}
		to, ok := w.from(lhs)
		if !ok {
			continue
		}
		// A store of values (p.fns = append(p.fns, f), p.byName[k] = f)
		// keeps them; a store of anything else clears.
		carried := w.carried(as.Rhs[k])
		for _, i := range carried {
			if i != to {
				w.out.Keeps = append(w.out.Keeps, Flow{From: i, To: to})
			}
		}
		if len(carried) == 0 && !w.lazy[as] {
			w.out.Clears = append(w.out.Clears, to)
		}
	}
}

// carried returns the parameters whose values e carries: e itself, the
// elements of a composite literal, append's operands, a closure that
// captures them, or a call's result that keeps them.
func (w *fvWalk) carried(e ast.Expr) []int {
	var out []int
	var visit func(ast.Expr)
	visit = func(e ast.Expr) {
		switch x := ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				visit(el)
			}
			return
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				visit(x.X)
			}
			return
		case *ast.FuncLit:
			ast.Inspect(x.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if i, ok := w.from(id); ok {
						out = append(out, i)
					}
				}
				return true
			})
			return
		case *ast.CallExpr:
			w.callCarries(x, visit)
			return
		}
		if i, ok := w.from(e); ok {
			out = append(out, i)
		}
	}
	visit(e)
	return out
}

// callCarries visits what a call's result carries: append's operands, or
// the arguments the callee keeps in its (first) result.
func (w *fvWalk) callCarries(call *ast.CallExpr, visit func(ast.Expr)) {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok {
			if b.Name() == "append" {
				for _, a := range call.Args {
					visit(a)
				}
			}
			return
		}
	}
	callee := typeutil.StaticCallee(w.info, call)
	cv := w.a.funcValsOf(callee)
	if cv == nil {
		return
	}
	nparams := callee.Type().(*types.Signature).Params().Len()
	for _, f := range cv.Keeps {
		if f.To == nparams {
			visit(argAt(w.info, call, f.From))
		}
	}
}

// argAt returns the expression a call passes for the callee's parameter j
// (directives.Receiver: the receiver of a method value call), or nil.
func argAt(info *types.Info, call *ast.CallExpr, j int) ast.Expr {
	se, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if isSel {
		if sel := info.Selections[se]; sel != nil && sel.Kind() == types.MethodExpr {
			return nil // (*T).m(x, f): arguments and parameters do not line up
		}
	}
	if j == directives.Receiver {
		if isSel {
			if sel := info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
				return se.X
			}
		}
		return nil
	}
	if j < 0 || j >= len(call.Args) || call.Ellipsis.IsValid() && j == len(call.Args)-1 {
		return nil
	}
	return call.Args[j]
}

// valueRoot returns the variable an expression reads its value from,
// through fields, indexes, slices, dereferences and addresses: p for
// p.fns[i], *p, &p.c, p.fns[1:]; nil for anything else.
func valueRoot(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			return v
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// holdsFuncValues reports whether a function's receiver, parameters or
// results can hold function values: only then can it run or keep them.
func holdsFuncValues(sig *types.Signature) bool {
	if sig.Recv() != nil && holdsFuncs(sig.Recv().Type(), nil) {
		return true
	}
	for _, t := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < t.Len(); i++ {
			if holdsFuncs(t.At(i).Type(), nil) {
				return true
			}
		}
	}
	return false
}

// holdsFuncs reports whether a value of type t can hold a function value
// in itself, its fields or elements, or what it points to. Interfaces are
// left out: what they hold is not known here.
func holdsFuncs(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	if named, ok := types.Unalias(t).(*types.Named); ok {
		if seen == nil {
			seen = map[types.Type]bool{}
		}
		seen[named] = true
	}
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Pointer:
		return holdsFuncs(u.Elem(), seen)
	case *types.Slice:
		return holdsFuncs(u.Elem(), seen)
	case *types.Array:
		return holdsFuncs(u.Elem(), seen)
	case *types.Map:
		return holdsFuncs(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsFuncs(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// exportFuncVals exports the FuncVals of the package's functions other
// packages can call.
func (a *packageAnalysis) exportFuncVals() {
	t := &FuncValTable{}
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !fn.Exported() {
			continue
		}
		if v := a.funcValsOf(fn); v != nil {
			if key := LocalKey(fn); key != "" {
				t.Add(key, *v)
			}
		}
	}
	t.Export(a.pass, t)
}
