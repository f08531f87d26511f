// Package flowgraph builds the go/cfg control-flow graph of a function
// body the way every part of guardvet sees it: a call that cannot return
// (panic, os.Exit, log.Fatal, runtime.Goexit, a test's Fatal, FailNow or
// Skip) ends its path. The engine's dataflow, check-then-act's
// post-dominance and the goroutine regions all use this one graph
// builder, so they agree on which paths exist.
package flowgraph

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// New returns the control-flow graph of body.
func New(info *types.Info, body *ast.BlockStmt) *cfg.CFG {
	return cfg.New(body, func(call *ast.CallExpr) bool { return MayReturn(info, call) })
}

// MayReturn reports whether a call can return to its caller. After
// runtime.Goexit, t.FailNow and t.Skip the function's deferred calls run,
// as at a return, but nothing after the call does.
func MayReturn(info *types.Info, call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return false
		}
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return true
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "runtime.Goexit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln":
		return false
	}
	if fn.Pkg().Path() == "testing" {
		switch fn.Name() {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return false // Skipped, a query, returns
		}
	}
	return true
}
