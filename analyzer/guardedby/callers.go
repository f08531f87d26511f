package guardedby

// Helpers called only with the lock held. An unannotated, unexported
// function whose every call in the package holds the lock an access in it
// needs is checked as if it were annotated to hold it (//guard:holds, or
// the checklocks dialect's equivalent): its callers hold it, so neither
// they nor its accesses are reported. Only a function nothing can reach but those calls qualifies:
// never used as a value (a method value, a callback, an interface
// method), never started with go, with at least one call. A caller that
// itself qualifies for the same lock counts as holding it.

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// callerIndex is what heldByCallers needs of the package, built once.
type callerIndex struct {
	calls  map[*types.Func][]callSite // the static calls of each function
	record map[*types.Func]*lockstate.Func
	// onlyCalled: the function is named only as the function of a call,
	// never as a value, and never started with go.
	onlyCalled map[*types.Func]bool
	memo       summaries.Verdicts[heldKey] // held at every call
}

type callSite struct {
	caller *lockstate.Func
	call   *lockstate.Call
}

type heldKey struct {
	fn    *types.Func
	param int
	sel   string
	write bool
}

func (c *checker) callers() *callerIndex {
	if c.callIdx != nil {
		return c.callIdx
	}
	x := &callerIndex{calls: map[*types.Func][]callSite{}, record: map[*types.Func]*lockstate.Func{}, onlyCalled: map[*types.Func]bool{}, memo: summaries.Verdicts[heldKey]{}}
	for _, f := range c.ls.Funcs {
		if f.Lit == nil && f.Context == lockstate.Declared && f.Obj != nil {
			x.record[f.Obj] = f
		}
		for _, call := range f.Calls {
			if call.Callee != nil {
				callee := call.Callee.Origin()
				x.calls[callee] = append(x.calls[callee], callSite{caller: f, call: call})
			}
		}
	}
	info := c.pass.TypesInfo
	called := map[*ast.Ident]bool{}
	started := map[*ast.Ident]bool{}
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			var call *ast.CallExpr
			inGo := false
			switch n := n.(type) {
			case *ast.GoStmt:
				call, inGo = n.Call, true
			case *ast.CallExpr:
				call = n
			default:
				return true
			}
			if id := astq.CalleeName(call); id != nil {
				if inGo {
					started[id] = true
				} else if !started[id] {
					called[id] = true
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		fn = fn.Origin()
		v, seen := x.onlyCalled[fn]
		x.onlyCalled[fn] = (v || !seen) && called[id] && !started[id]
	}
	c.callIdx = x
	return x
}

// heldByCallers reports whether every call of fn (an unexported,
// unannotated declared function) holds lock, rooted at one of fn's
// parameters or its receiver, as an access that writes (write) or reads
// needs it.
func (c *checker) heldByCallers(fn *lockstate.Func, lock lockpath.Path, write bool) bool {
	if fn.Lit != nil || fn.Context != lockstate.Declared || fn.Obj == nil || fn.Obj.Exported() || !lock.Valid() {
		return false
	}
	i, ok := directives.ParamIndex(fn.Obj.Type().(*types.Signature))[lock.Root]
	if !ok {
		return false
	}
	return c.heldAtCalls(fn.Obj.Origin(), heldKey{fn: fn.Obj.Origin(), param: i, sel: lock.Sel, write: write})
}

func (c *checker) heldAtCalls(fn *types.Func, k heldKey) bool {
	x := c.callers()
	if held, ok := x.memo.Known(k); ok {
		return held // no while computing: a cycle of calls, where nothing outside it holds the lock
	}
	x.memo.Start(k)
	ok := c.dirs.Contract(fn).Empty() && x.onlyCalled[fn]
	outside := 0 // calls from other functions: a recursion alone holds nothing
	for _, site := range x.calls[fn] {
		if !ok {
			break
		}
		ref := directives.LockRef{Kind: directives.Param, Param: k.param, Sel: k.sel, Text: k.sel}
		p := site.caller.RefAtCall(c.dirs, ref, site.call.Node, site.call.Callee)
		v := site.call.State.Lock(p)
		self := site.caller.Obj != nil && site.caller.Obj.Origin() == fn && site.caller.Lit == nil
		if !self {
			outside++
		}
		if (k.write && v.Mode == lockstate.Exclusive) || (!k.write && v.Mode.Held()) {
			continue
		}
		if self && v.Mode == lockstate.Unknown && p.Valid() && p.Root == lockRoot(fn, k.param) && p.Sel == k.sel {
			continue // a recursive call on the same object holds what this call's caller holds
		}
		ok = p.Valid() && v.Mode == lockstate.Unknown && c.heldByCallers(site.caller, p, k.write)
	}
	return x.memo.Settle(k, ok && outside > 0)
}

// lockRoot returns fn's parameter i (directives.Receiver: its receiver).
func lockRoot(fn *types.Func, i int) types.Object {
	sig := fn.Type().(*types.Signature)
	if i == directives.Receiver {
		return sig.Recv()
	}
	return sig.Params().At(i)
}
