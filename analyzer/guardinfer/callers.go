package guardinfer

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// The callers of the package's functions: which locks every call of a
// helper holds, which methods only ever run on an object not yet shared
// (init helpers), and where a function's declaration is.

// indexCallers records the static calls of this package's unexported
// methods, and every reference to them.
func (r *inference) indexCallers() {
	r.callers = map[*types.Func][]callSite{}
	r.refs = map[*types.Func]int{}
	r.memo = summaries.Verdicts[callerKey]{}
	r.entries = map[*types.Func]map[string]lockstate.Mode{}
	r.threads = map[*types.Func]thread{}
	r.reached = map[*types.Func]bool{}
	r.lockSets = map[*lockstate.Access]map[string]lockstate.Mode{}
	for _, obj := range r.pass.TypesInfo.Uses {
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() == r.pass.Pkg {
			r.refs[fn.Origin()]++
		}
	}
	r.calls = map[*types.Func]int{}
	seen := map[ast.Node]bool{}
	add := func(fn *types.Func, site callSite, n ast.Node) {
		r.callers[fn] = append(r.callers[fn], site)
		if !seen[n] {
			seen[n] = true
			r.calls[fn]++
		}
	}
	for _, f := range r.ls.Funcs {
		for _, call := range f.Calls {
			if call.Deferred {
				continue
			}
			if fn := call.Callee.Origin(); r.refs[fn] > 0 {
				add(fn, callSite{f, call, -1}, call.Node)
			}
			// s.onEvict(e, s.removeOldest): the method value runs in
			// place, a call of it made here.
			for _, i := range call.InPlace {
				arg := call.Node.Args[i]
				if fn := lockstate.NamedFunc(r.pass.TypesInfo, arg); fn != nil && r.refs[fn.Origin()] > 0 {
					add(fn.Origin(), callSite{f, call, i}, arg)
				}
			}
		}
	}
}

// calledOnly reports whether every reference to fn is a call the index
// holds: no method value, no deferred call. A call in a closure the engine
// follows in several contexts (a helper closure called twice) has a site
// for each, so sites are counted by call, not by context.
func (r *inference) calledOnly(fn *types.Func) bool {
	return len(r.callers[fn]) > 0 && r.calls[fn] == r.refs[fn]
}

// maxCallerDepth bounds how far up the call chain heldByCallers looks.
const maxCallerDepth = 4

// heldByCallers reports whether lock, rooted at the receiver of the method
// f runs in or at one of its parameters, is held at every call of that
// method: an unexported helper only ever called under its receiver's (or
// its argument's) lock runs under it, even without a ...Locked name. A method also referenced other than by a call (a
// method value), or not called at all, gets no such credit.
func (r *inference) heldByCallers(f *lockstate.Func, lock lockpath.Path, depth int, docs bool) bool {
	if depth > maxCallerDepth {
		return false // t.parent.m() inside m: paths would grow without end
	}
	if f.Context != lockstate.Declared && f.Context != lockstate.Inline && f.Context != lockstate.Deferred {
		return false
	}
	sig := f.Obj.Type().(*types.Signature)
	recv := sig.Recv()
	// The lock is the receiver's, or a parameter's (a helper of t that
	// its callers call holding s.hdrMu of the stream s they pass it, or a
	// function handed a block its callers lock or have not shared yet).
	param := -1
	if recv == nil || lock.Root != types.Object(recv) {
		for i := 0; i < sig.Params().Len(); i++ {
			if types.Object(sig.Params().At(i)) == lock.Root {
				param = i
			}
		}
		if param < 0 || (sig.Variadic() && param == sig.Params().Len()-1) {
			return false
		}
	}
	fn := f.Obj.Origin()
	if !docs && (fn.Exported() || recv == nil) {
		// What the package's calls of an exported method or of a
		// function hold says what the author means; it is not evidence
		// of a guard (meantHeld): it can remove a finding, never add one.
		return false
	}
	key := callerKey{fn, lock.Sel, docs}
	if held, ok := r.memo.Known(key); ok {
		return held // no while computing: recursion proves nothing
	}
	r.memo.Start(key)
	return r.memo.Settle(key, r.callsHold(fn, param, lock, depth, docs))
}

// callsHold reports whether every call of fn holds lock, rooted at its
// receiver (param < 0) or at its parameter param, or is made on an object
// the caller has not shared yet.
func (r *inference) callsHold(fn *types.Func, param int, lock lockpath.Path, depth int, docs bool) bool {
	sites := r.callers[fn]
	if !r.calledOnly(fn) {
		return false
	}
	if (docs || fn.Exported() || fn.Type().(*types.Signature).Recv() == nil) && !r.ownCode(sites) {
		return false
	}
	for _, site := range sites {
		if docs && r.inTestFile(site.call.Node.Pos()) {
			// A test calls helpers as it likes, when nothing else runs:
			// what the package's own calls hold is what is meant (never
			// evidence: that counts the test's calls too).
			continue
		}
		var x ast.Expr
		if param < 0 {
			recv, ok := site.recv()
			if !ok {
				return false
			}
			if site.arg < 0 && r.privateCall(site.fn, site.call) || r.inInitHelper(site.fn, recv) {
				continue // on an object not yet shared: no lock needed
			}
			x = recv
		} else {
			args := site.args()
			if param >= len(args) {
				return false
			}
			x = args[param]
			if v := ownRoot(r.pass.TypesInfo, x); v != nil && r.ctx.private(site.fn, v, nil, site.call.Node.Pos()) {
				continue // an object the caller has not shared yet
			}
		}
		at := site.fn.Resolver.Of(x)
		if !at.Valid() {
			return false
		}
		atLock := r.ls.Dirs.CanonLock(lockpath.Path{Root: at.Root, Sel: at.Sel + lock.Sel})
		if m := site.call.State.Lock(atLock).Mode; !m.Held() && m != lockstate.Maybe && !(docs && r.docHeldAt(site.fn, at.Root)) && !r.heldByCallers(site.fn, atLock, depth+1, docs) {
			return false
		}
	}
	return true
}

// ownCode reports whether some of the calls are in the package's own
// code: a test calls a function as it likes, often on an object it just
// made and while nothing else runs, which says nothing of the lock it
// needs.
func (r *inference) ownCode(sites []callSite) bool {
	for _, site := range sites {
		if !r.inTestFile(site.call.Node.Pos()) {
			return true
		}
	}
	return false
}

// docHeldAt reports whether the function f runs in is documented as
// running with root's lock held (docSaysHeld).
func (r *inference) docHeldAt(f *lockstate.Func, root types.Object) bool {
	return f.Lit == nil && f.Decl != nil && f.Decl.Doc != nil && r.docSaysHeld(f.Decl, root)
}

// declOf returns the declaration of one of the package's functions.
func (r *inference) declOf(fn *types.Func) *ast.FuncDecl {
	if r.decls == nil {
		r.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range r.ls.Funcs {
			if f.Lit == nil && f.Decl != nil && f.Obj != nil {
				r.decls[f.Obj] = f.Decl
			}
		}
	}
	return r.decls[fn.Origin()]
}

// initHelpers finds the methods that only ever run before their receiver
// is shared: every call of them is on an object not yet published (s :=
// &S{}; s.init()), a method value handed to sync.Once.Do, which runs it
// once before any caller of Do goes on, or a call on its own receiver (or
// a part of it) from another init helper (s.setup() calling
// s.queue.reset()); and methods named init, which say so by their name.
// A method callers outside the package can reach is not one
// (internalMethod). A call the engine follows in several contexts (in a
// closure called twice) counts once, early only if early in each.
func (r *inference) initHelpers() map[*types.Func]bool {
	pass, refs := r.pass, r.refs
	early := map[*types.Func]int{}
	earlyCall := map[*ast.CallExpr]bool{} // every context seen so far early
	callee := map[*ast.CallExpr]*types.Func{}
	var nested []nestedCall // calls on a caller's own receiver: early when the caller is
	for _, f := range r.ls.Funcs {
		for _, call := range f.Calls {
			if directives.FuncKey(call.Callee) == "sync.Once.Do" && len(call.Node.Args) == 1 {
				if se, ok := ast.Unparen(call.Node.Args[0]).(*ast.SelectorExpr); ok {
					if fn, ok := pass.TypesInfo.Uses[se.Sel].(*types.Func); ok {
						early[fn.Origin()]++
					}
				}
				continue
			}
			fn := call.Callee.Origin()
			if refs[fn] == 0 || call.Deferred || !r.internalMethod(fn) {
				continue
			}
			se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			callee[call.Node] = fn
			isEarly := false
			if id, ok := ast.Unparen(se.X).(*ast.Ident); ok {
				// The engine tracks parameters as fresh only to learn
				// whether a function publishes them; a caller's own
				// receiver or parameter is not an unpublished object.
				if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && call.State.Fresh(v) && !isParam(f.Obj, v) {
					isEarly = true
				}
			}
			if !isEarly && r.privateCall(f, call) {
				isEarly = true // s.q.init(): on a part of an object not yet shared
			}
			if prev, seen := earlyCall[call.Node]; !seen || prev {
				earlyCall[call.Node] = isEarly
			}
			if !isEarly && f.Lit == nil && f.Obj != nil {
				if recv := f.Obj.Type().(*types.Signature).Recv(); recv != nil && f.Resolver.Of(se.X).Root == types.Object(recv) {
					nested = append(nested, nestedCall{f, call.Node})
				}
			}
		}
	}
	for call, ok := range earlyCall {
		if ok {
			early[callee[call]]++
		}
	}
	out := map[*types.Func]bool{}
	for fn, n := range refs {
		// A method named init initialises its receiver in place by its
		// name, as a ...Locked method holds its lock: wherever it is
		// called, the object is not in use yet.
		if r.internalMethod(fn) && (early[fn] == n || fn.Name() == "init") {
			out[fn] = true
		}
	}
	r.nestedInits(out, nested, early, earlyCall, callee)
	return out
}

// nestedCall is a call an init helper candidate makes on its own receiver.
type nestedCall struct {
	f    *lockstate.Func
	call *ast.CallExpr
}

// nestedInits adds to out, until nothing changes, the methods whose calls
// are all early or made by an init helper on its own receiver.
func (r *inference) nestedInits(out map[*types.Func]bool, nested []nestedCall, early map[*types.Func]int, earlyCall map[*ast.CallExpr]bool, callee map[*ast.CallExpr]*types.Func) {
	for grew := true; grew; {
		grew = false
		counted := map[*types.Func]int{}
		seen := map[*ast.CallExpr]bool{}
		for _, c := range nested {
			if out[c.f.Obj.Origin()] && !seen[c.call] && !earlyCall[c.call] {
				seen[c.call] = true
				counted[callee[c.call]]++
			}
		}
		for fn, n := range counted {
			if !out[fn] && early[fn]+n == r.refs[fn] {
				out[fn], grew = true, true
			}
		}
	}
}

// internalMethod reports whether only the package calls the method fn:
// an unexported method, or an exported method of an unexported type the
// package never hands out (internalType).
func (r *inference) internalMethod(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	if !fn.Exported() {
		return true
	}
	t, ok := types.Unalias(astq.Deref(recv.Type())).(*types.Named)
	return ok && r.internalType(t.Origin())
}

// onceClosures returns the closures handed to sync.Once.Do: each runs
// once, before any caller of Do goes on, as an init helper does.
func (r *inference) onceClosures() map[*ast.FuncLit]bool {
	out := map[*ast.FuncLit]bool{}
	for _, f := range r.ls.Funcs {
		for _, call := range f.Calls {
			if directives.FuncKey(call.Callee) == "sync.Once.Do" && len(call.Node.Args) == 1 {
				if lit, ok := ast.Unparen(call.Node.Args[0]).(*ast.FuncLit); ok {
					out[lit] = true
				}
			}
		}
	}
	return out
}

// privateCall reports whether a method call is made on an object, or a
// part of one, that the calling function allocated and has not shared.
func (r *inference) privateCall(f *lockstate.Func, call *lockstate.Call) bool {
	se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := r.pass.TypesInfo.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal || !ownPath(sel) {
		return false
	}
	root := ownRoot(r.pass.TypesInfo, se.X)
	// The call is private when the object is, for every field the method
	// reaches (all of them, when that is not known).
	if m, ok := sel.Obj().(*types.Func); ok && len(sel.Index()) == 1 && root != nil {
		if touched := r.ctx.touchedBy(m); touched != nil {
			for field := range touched {
				if !r.ctx.private(f, root, field, call.Node.Pos()) {
					return false
				}
			}
			return true
		}
	}
	return r.ctx.private(f, root, nil, call.Node.Pos())
}

// inInitHelper reports whether f is an init helper and x its receiver, or
// a part of it: s.freePush() inside s.init() runs on an object not yet
// shared, as the init helper does.
func (r *inference) inInitHelper(f *lockstate.Func, x ast.Expr) bool {
	if f.Lit != nil || f.Obj == nil || !r.initOnly[f.Obj.Origin()] {
		return false
	}
	recv := f.Obj.Type().(*types.Signature).Recv()
	return recv != nil && f.Resolver.Of(x).Root == types.Object(recv)
}

// isParam reports whether v is a receiver or parameter of fn: an object
// from the caller. A named result is not: it starts out zero, and is
// fresh only once the body stores a new object in it (p = &provider{}).
func isParam(fn *types.Func, v *types.Var) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == v {
		return true
	}
	for _, tuple := range []*types.Tuple{sig.Params()} {
		for i := 0; i < tuple.Len(); i++ {
			if tuple.At(i) == v {
				return true
			}
		}
	}
	return false
}
