package guardinfer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Accesses ordered by a go statement: what a function does before it
// starts a goroutine happens before everything that goroutine does.

// beforeStart reports whether an access comes before the one go
// statement that starts the goroutine th, in the same function body and
// not in a loop around both: cr.ctx set in start before its go cr.run()
// happens before run reads it.
func (r *inference) beforeStart(a *lockstate.Access, th thread) bool {
	if !th.goroutine || !th.start.IsValid() || a.Pos >= th.start {
		return false
	}
	r.goTargets()
	if fn, ok := th.key.(*types.Func); ok && r.goCounts[fn] != 1 {
		return false // started from more than one place
	}
	f := r.funcOf[a]
	if f == nil || f.Decl == nil {
		return false
	}
	var body *ast.BlockStmt = f.Decl.Body
	if f.Lit != nil {
		body = f.Lit.Body
	}
	if body == nil || th.start < body.Pos() || th.start >= body.End() {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(r.fileOf(th.start), th.start, th.start)
	for _, n := range path {
		if n == ast.Node(body) {
			return true
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if th.key == any(n) {
				continue // the goroutine's own literal
			}
			return false // started from another function
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= a.Pos && a.Pos < n.End() {
				return false // the access runs again after a start
			}
		}
	}
	return false
}

// beforeAllStarts reports whether an unlocked access comes before every
// other access of its field in the package: each is in the same function,
// or runs only in goroutines that this function starts after the access
// (TCPProxy.Run filling tp.remotes before go tp.runMonitor() and go
// tp.serve(in), whose code alone reads it). Every thread an access runs in
// must be known: an exported method, or a helper with an unknown caller,
// could run at any time.
func (r *inference) beforeAllStarts(m *lockstate.Access, accs []*lockstate.Access) bool {
	fm := r.funcOf[m]
	if fm == nil || fm.Decl == nil {
		return false
	}
	others := false
	for _, b := range accs {
		fb := r.funcOf[b]
		if b == m || fb == fm {
			continue
		}
		roots, ok := r.rootsOf(fb, 0)
		if !ok || len(roots) == 0 {
			return false
		}
		for _, th := range roots {
			if !r.beforeStart(m, th) {
				return false
			}
		}
		others = true
	}
	return others
}

// maxRootDepth bounds how far up the callers rootsOf looks.
const maxRootDepth = 4

// rootsOf returns every thread the function f may run in: the goroutine
// of a go statement's closure, a function a go statement starts, an
// exported method of a type with a lock, or, for an unexported helper
// only ever called, the threads of all its callers. ok is false when one
// is not known.
func (r *inference) rootsOf(f *lockstate.Func, depth int) ([]thread, bool) {
	if f == nil || depth > maxRootDepth {
		return nil, false
	}
	if f.Lit != nil {
		switch f.Context {
		case lockstate.Goroutine:
			th, ok := r.threadOf(f)
			return []thread{th}, ok
		case lockstate.Inline, lockstate.Deferred:
		default:
			return nil, false
		}
	}
	fn := f.Obj.Origin()
	if fn.Exported() {
		return nil, false // callers outside the package run it anywhere
	}
	var out []thread
	if _, started := r.goTargets()[fn]; started {
		th, _ := r.ownThread(fn)
		out = append(out, th)
	}
	sites := r.callers[fn]
	if r.calls[fn]+r.goCounts[fn] != r.refs[fn] {
		return nil, false // a method value, handed on: it runs anywhere
	}
	for _, site := range sites {
		if r.inTestFile(site.call.Node.Pos()) {
			continue
		}
		up, ok := r.rootsOf(site.fn, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, up...)
	}
	return out, len(out) > 0
}
