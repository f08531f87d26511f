package goroutines

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Helpers of the package that run a function argument in goroutines of
// their own (HelperGo), decided from their bodies.

// helperRun is what a helper's body does with a function parameter.
type helperRun struct {
	param int  // the parameter started in a goroutine
	many  bool // the start is inside a loop: several run at once
	waits bool // the body waits (WaitGroup or errgroup Wait) before returning
}

// helperSpawn returns the start a call of a package function is when the
// function runs one of its function parameters in goroutines, and the
// call passes a function literal there.
func helperSpawn(info *types.Info, call *ast.CallExpr, fn *types.Func, declOf func(*types.Func) *ast.FuncDecl) *Spawn {
	if declOf == nil {
		return nil
	}
	fd := declOf(fn.Origin())
	if fd == nil || fd.Body == nil {
		return nil
	}
	run, ok := runsParamConcurrently(info, fd)
	if !ok || !run.waits || run.param >= len(call.Args) {
		// A helper that does not wait for its goroutines with a WaitGroup
		// or an errgroup joins them some other way, or not at all: its
		// caller's region is not known, and nothing is said.
		return nil
	}
	lit, ok := ast.Unparen(call.Args[run.param]).(*ast.FuncLit)
	if !ok {
		return nil
	}
	return &Spawn{Node: call, Kind: HelperGo, Lit: lit, helper: run}
}

// StartsParam returns the function parameter fd's body runs in a
// goroutine of its own (go f(), go func() { ... f() ... }(), wg.Go,
// g.Go), if any: a function literal passed there runs on another
// goroutine, with no lock held, as one passed to time.AfterFunc does.
func StartsParam(info *types.Info, fd *ast.FuncDecl) (param int, ok bool) {
	run, ok := runsParamConcurrently(info, fd)
	return run.param, ok
}

// runsParamConcurrently reports whether fd's body starts a goroutine (a go
// statement, or wg.Go, g.Go) that calls one of fd's function parameters,
// and how.
func runsParamConcurrently(info *types.Info, fd *ast.FuncDecl) (helperRun, bool) {
	params := map[types.Object]int{}
	i := 0
	for _, f := range fd.Type.Params.List {
		for _, name := range f.Names {
			if obj := info.Defs[name]; obj != nil {
				if _, isFunc := obj.Type().Underlying().(*types.Signature); isFunc {
					params[obj] = i
				}
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	if len(params) == 0 {
		return helperRun{}, false
	}
	calls := func(n ast.Node) (int, bool) {
		found, at := false, 0
		ast.Inspect(n, func(m ast.Node) bool {
			if c, ok := m.(*ast.CallExpr); ok && !found {
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
					if j, ok := params[info.Uses[id]]; ok {
						found, at = true, j
					}
				}
			}
			return !found
		})
		return at, found
	}
	var run helperRun
	found := false
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if c, ok := n.(*ast.CallExpr); ok {
			if callee := typeutil.StaticCallee(info, c); callee != nil {
				switch callee.FullName() {
				case "(*sync.WaitGroup).Wait", "(*golang.org/x/sync/errgroup.Group).Wait":
					run.waits = true
				case "(*sync.WaitGroup).Go", "(*golang.org/x/sync/errgroup.Group).Go":
					if j, ok := calls(c); ok && !found {
						run.param, found, run.many = j, true, inLoop(stack)
					}
				}
			}
		}
		if g, ok := n.(*ast.GoStmt); ok && !found {
			if j, ok := calls(g.Call); ok {
				run.param, found, run.many = j, true, inLoop(stack)
			}
		}
		return true
	})
	return run, found
}

// inLoop reports whether a for or range statement is among the ancestors.
func inLoop(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}
