package races

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// root is a goroutine root: code that runs in a goroutine of its own.
type root struct {
	index int             // its place in the run's order of roots
	label string          // how findings name it: main, TestX, handler /detach, goroutine started in Server.start
	fns   []*ssa.Function // where it starts
	// multi: several instances may run at once (a handler, a go
	// statement in a loop or in code that itself runs many times).
	multi bool
	// top is the root it was started from, transitively (itself for a
	// top root); concurrent tells whether top roots run at the same time
	// as other top roots (a library's exported methods, ServeHTTP
	// methods) or alone (main, a test).
	top        *root
	concurrent bool
	// assumed: the root is a library's exported methods, which run at
	// once only by assumption (RacerD's): a race that needs it is
	// reported only on state the program guards (report.go).
	assumed bool
	// assumedMulti: several instances may run at once only because an
	// assumed root's code starts it (not in a loop), and that root runs
	// many times at once only by assumption: a connection's read loop
	// that Connect starts. Its instances are not paired with each other
	// (concurrent): they run at once only if the library's user starts
	// two on one object at once, which its goroutines that take turns
	// (restarted after the last one is waited for) never do. With the
	// code that starts it and with other goroutines it is paired as any
	// root is.
	assumedMulti bool
	// parallel is a test's call of t.Parallel (nil if it makes none): the
	// test runs at the same time as the other parallel tests from there
	// on, and before it, alone.
	parallel *ssa.Call
	// parent is the root whose code started this one, at site in siteFn
	// (a go statement, a handler's registration); nil for a top root.
	parent *root
	site   ssa.Instruction
	siteFn *ssa.Function
	// mux is, for a handler registered on a ServeMux, the objects the
	// mux may be: the handler starts where a server serves it too
	// (served.go).
	mux objSet
	// joinKind is how the spawner can wait for it: "wg" if it calls
	// WaitGroup.Done or was started by WaitGroup.Go or errgroup's Go,
	// "chan" if it sends on or closes a channel; both may hold.
	joins map[string]bool
	// sent is the channels it sends on or closes (joinsOf): a select's
	// case receiving from one of them waits for it.
	sent objSet
	// spanned is the locks its spawner holds from its go statement on
	// and releases only after it has waited for it (spanned.go), if it
	// waits for it before every return (spanWaited, worked out once).
	spanned    lockSet
	spanWaited *bool

	// group is the root whose instances each make one group of
	// goroutines: itself, or its parent's group when it starts once per
	// instance of its parent (ownership.go). origins is, for each of its
	// functions, which parameters its parent passes own objects to.
	group   *root
	origins map[*ssa.Function][]ownership
	// params is, for each of its functions, what the go statement that
	// starts it passes each parameter, where that is less than what the
	// points-to analysis says of the parameter (go withRecover(b.run):
	// withRecover's fn is b.run, not every function handed to it).
	params map[*ssa.Function][]objSet
	// handed is the locks its spawner held at the go statement and the
	// goroutine releases without taking them (handedLocks): it runs
	// holding them.
	handed lockSet

	// The traversal's results: the entry lock set of each function it
	// reaches, and the first call that reached it, for the witness path.
	ctxs map[*ssa.Function][]*context
	via  map[*ssa.Function]callEdge
	// paths memoises path, once the traversal is done.
	paths map[*ssa.Function][]callEdge
}

type callEdge struct {
	caller *ssa.Function
	site   ssa.Instruction
}

// unreachedAPI is, where the roots are a main or tests rather than a
// library's API, how many of the methods a library run would start
// from (libraryRoots) no root reached: a module with an example or a
// command among the packages named would otherwise say nothing about
// its library's API, and a run saying nothing must mean it looked.
func (a *run) unreachedAPI(reached map[*ssa.Function]bool) int {
	if a.library {
		return 0
	}
	n := 0
	for _, r := range a.libraryRoots() {
		for _, fn := range r.fns {
			if !reached[fn] {
				n++
			}
		}
	}
	return n
}

// topRoots finds the roots the program starts with: main.main (with the
// packages' init functions) when a main package is named; test functions
// with -tests; otherwise, a library's entry points: the exported methods
// of types whose methods take one of the type's own locks, and the
// ServeHTTP methods of the packages named, each of which may run many
// times at once.
func (a *run) topRoots() []*root {
	var roots []*root
	for _, pkg := range a.p.pkgs {
		if pkg.Pkg.Name() == "main" {
			if fn := pkg.Func("main"); fn != nil {
				r := &root{label: "main", fns: []*ssa.Function{fn}}
				if init := pkg.Func("init"); init != nil {
					r.fns = append([]*ssa.Function{init}, r.fns...)
				}
				roots = append(roots, r)
			}
		}
	}
	if a.opts.Tests {
		for _, pkg := range a.p.pkgs {
			for _, fn := range members(pkg) {
				if isTest(fn) {
					par := parallelCall(fn)
					roots = append(roots, &root{label: fn.Name(), fns: []*ssa.Function{fn}, parallel: par, concurrent: par != nil})
				}
			}
		}
	}
	if len(roots) == 0 {
		roots = a.libraryRoots()
		a.library = true
	}
	for _, r := range roots {
		r.top = r
		r.group = r
	}
	return roots
}

// members is pkg's functions and methods with bodies, sorted by name.
func members(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			out = append(out, m)
		case *ssa.Type:
			if named, ok := m.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
				// A generic type's methods: their generic bodies, which
				// its package need not instantiate (a generic pool).
				for i := 0; i < named.NumMethods(); i++ {
					if fn := pkg.Prog.FuncValue(named.Method(i)); fn != nil && fn.Pkg == pkg && fn.Blocks != nil {
						out = append(out, fn)
					}
				}
				continue
			}
			for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
				mset := pkg.Prog.MethodSets.MethodSet(t)
				for i := 0; i < mset.Len(); i++ {
					if fn := pkg.Prog.MethodValue(mset.At(i)); fn != nil && fn.Pkg == pkg && fn.Synthetic == "" {
						out = append(out, fn)
					}
				}
			}
		}
	}
	sortedFuncs(out)
	out = dedupe(out)
	return out
}

func dedupe(fns []*ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for i, fn := range fns {
		if i == 0 || fns[i-1] != fn {
			out = append(out, fn)
		}
	}
	return out
}

// parallelCall is fn's own call of testing's T.Parallel, nil if it has
// none: from there on the test runs alongside the other parallel tests.
func parallelCall(fn *ssa.Function) *ssa.Call {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && staticCallee(call) == "(*testing.T).Parallel" {
				return call
			}
		}
	}
	return nil
}

// isTest reports whether fn is a test function: TestX(t *testing.T).
func isTest(fn *ssa.Function) bool {
	if fn.Signature.Recv() != nil || !strings.HasPrefix(fn.Name(), "Test") || fn.Signature.Params().Len() != 1 {
		return false
	}
	return fn.Signature.Params().At(0).Type().String() == "*testing.T"
}

// libraryRoots are a library's entry points (RacerD's rule): each
// ServeHTTP method, and the exported methods of types some method of
// which takes one of the type's own locks, all of which may run at once.
// The exported methods are one root, entered at each of them: a
// function's entry lock set is then what every call reaching it holds,
// whichever method it came from, and the program is walked once.
func (a *run) libraryRoots() []*root {
	var roots []*root
	methods := &root{label: "exported method", multi: true, concurrent: true, assumed: true}
	public := slices.ContainsFunc(a.p.pkgs, func(pkg *ssa.Package) bool { return !internalPkg(pkg.Pkg.Path()) })
	for _, pkg := range a.p.pkgs {
		if public && internalPkg(pkg.Pkg.Path()) {
			// Code outside the module cannot call an internal
			// package: it runs as the public packages' code calls it,
			// which the roots follow.
			continue
		}
		locking := map[string]bool{} // types whose methods lock their own locks
		fns := members(pkg)
		streams := a.streams(fns) // streams.go
		for _, fn := range fns {
			if t := recvName(fn); t != "" && a.locksOwn(fn, t) && !a.p.serialRecv(fn) && !streams[t] {
				locking[t] = true
			}
		}
		for _, fn := range fns {
			t := recvName(fn)
			switch {
			case t != "" && fn.Name() == "ServeHTTP":
				roots = append(roots, &root{label: "handler " + shownType(t) + ".ServeHTTP", fns: []*ssa.Function{fn}, multi: true, concurrent: true, origins: callersOwn(fn)})
			case t != "" && locking[t] && exportedAPI(fn) && !sortContract(fn) && !registration(fn):
				methods.fns = append(methods.fns, fn)
				for f, o := range callersOwn(fn) {
					if methods.origins == nil {
						methods.origins = map[*ssa.Function][]ownership{}
					}
					methods.origins[f] = o
				}
				if ps := externalFuncs(fn); ps != nil {
					if methods.params == nil {
						methods.params = map[*ssa.Function][]objSet{}
					}
					methods.params[fn] = ps
				}
			}
		}
		methods.fns = append(methods.fns, a.promoted(pkg, locking)...)
	}
	methods.fns = a.notStarted(dedupe(sortedFuncs(methods.fns)))
	if len(methods.fns) > 0 {
		roots = append(roots, methods)
	}
	return roots
}

// notStarted is entries less those another of them starts in a
// goroutine of its own (gliderlabs/ssh's Serve running go
// srv.HandleConn(conn) for each connection, after setting up what
// HandleConn reads): such a method is entered where it is started, after
// what its starter did first, and not as an entry point that runs at any
// time. A user may call it directly too, but not, by the library's
// design, beside the entry point that starts it.
func (a *run) notStarted(entries []*ssa.Function) []*ssa.Function {
	started := map[*ssa.Function]map[*ssa.Function]bool{} // started fn -> its starters
	for _, g := range entries {
		for _, fn := range withLiterals(g) {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					sp, ok := a.spawnAt(fn, instr)
					if !ok {
						continue
					}
					for _, f := range sp.fns {
						for _, h := range append([]*ssa.Function{f}, literalCallees(f)...) {
							if started[h] == nil {
								started[h] = map[*ssa.Function]bool{}
							}
							started[h][g] = true
						}
					}
				}
			}
		}
	}
	return slices.DeleteFunc(entries, func(f *ssa.Function) bool {
		delete(started[f], f) // a method restarting itself is still entered
		return len(started[f]) > 0
	})
}

// withLiterals is fn and the function literals within it, nested ones
// too.
func withLiterals(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].AnonFuncs...)
	}
	return out
}

// literalCallees is, for f a function literal, the functions its body
// calls statically (go func() { defer wg.Done(); s.serve(c) }()); nil
// for any other function.
func literalCallees(f *ssa.Function) []*ssa.Function {
	if f.Parent() == nil {
		return nil
	}
	var out []*ssa.Function
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if callee := call.Common().StaticCallee(); callee != nil {
					out = append(out, callee)
				}
			}
		}
	}
	return out
}

// internalPkg reports whether path is an internal package, which only
// the tree its internal directory is in can import.
func internalPkg(path string) bool {
	return path == "internal" || strings.HasPrefix(path, "internal/") || strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/")
}

// promoted is the exported methods of locking types that an exported
// type of pkg promotes (type Cache struct{ *cache }: Cache.Set is
// cache.Set): code outside calls them through the exported type.
func (a *run) promoted(pkg *ssa.Package, locking map[string]bool) []*ssa.Function {
	var out []*ssa.Function
	for _, m := range pkg.Members {
		t, ok := m.(*ssa.Type)
		if !ok || !t.Object().Exported() {
			continue
		}
		mset := a.p.prog.MethodSets.MethodSet(types.NewPointer(t.Type()))
		for i := 0; i < mset.Len(); i++ {
			sel := mset.At(i)
			f, ok := sel.Obj().(*types.Func)
			if !ok || !f.Exported() || len(sel.Index()) < 2 {
				continue // not promoted: the type's own methods are roots already when they lock
			}
			if fn := a.p.prog.FuncValue(f); fn != nil && fn.Blocks != nil && locking[recvName(fn)] && !registration(fn) {
				out = append(out, fn)
			}
		}
	}
	return out
}

func sortedFuncs(fns []*ssa.Function) []*ssa.Function {
	named := make([]struct {
		name string
		fn   *ssa.Function
	}, len(fns))
	for i, fn := range fns {
		named[i].name, named[i].fn = fn.String(), fn // once each: String builds the name
	}
	sort.Slice(named, func(i, j int) bool { return named[i].name < named[j].name })
	for i := range named {
		fns[i] = named[i].fn
	}
	return fns
}

// recvName is the qualified name of fn's receiver type, "" for a function.
func recvName(fn *ssa.Function) string {
	recv := fn.Signature.Recv()
	if recv == nil {
		return ""
	}
	if named, ok := types.Unalias(deref(recv.Type())).(*types.Named); ok {
		return qualifiedName(named)
	}
	return ""
}

// locksOwn reports whether fn takes a lock that is a field of its
// receiver's type t.
func (a *run) locksOwn(fn *ssa.Function, t string) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if op, ok := asLockOp(call); ok && op.acquire && strings.HasPrefix(op.key, t+".") {
					return true
				}
			}
		}
	}
	return false
}

// spawn is code handed to another goroutine at an instruction: a go
// statement's call, a handler registered with net/http, a time.AfterFunc
// callback, a function run by WaitGroup.Go or errgroup's Go.
type spawn struct {
	fns   []*ssa.Function
	label string
	multi bool // a handler: every request runs it anew
	joins map[string]bool
	// perRequest: net/http hands each run its own request and response
	// writer, the parameters of the functions it starts.
	perRequest bool
	// mux is the ServeMux a handler is registered on, nil for
	// http.DefaultServeMux's.
	mux ssa.Value
}

// spawnAt recognises instr, in fn, as starting other goroutines; the
// answer is worked out once per instruction.
func (a *run) spawnAt(fn *ssa.Function, instr ssa.Instruction) (spawn, bool) {
	if _, ok := instr.(ssa.CallInstruction); !ok {
		return spawn{}, false
	}
	if m, ok := a.spawnMemo[instr]; ok {
		return m.sp, m.ok
	}
	sp, ok := a.findSpawn(fn, instr)
	a.spawnMemo[instr] = spawnFound{sp, ok}
	return sp, ok
}

type spawnFound struct {
	sp spawn
	ok bool
}

// findSpawn computes spawnAt.
func (a *run) findSpawn(fn *ssa.Function, instr ssa.Instruction) (spawn, bool) {
	switch x := instr.(type) {
	case *ssa.Go:
		if sp, ok := a.serveSpawn(fn, x); ok {
			return sp, true // go http.ListenAndServe(addr, h)
		}
		if a.wrapperStmt(fn, x) {
			return spawn{}, true // each call of the wrapper starts one (wrappers.go)
		}
		return spawn{fns: a.p.callees(fn, x), label: "goroutine started in " + a.p.name(fn)}, true
	case *ssa.Call:
		callee := x.Common().StaticCallee()
		if callee == nil {
			return spawn{}, false
		}
		args := x.Common().Args
		switch calleeName(callee) {
		case "net/http.HandleFunc", "net/http.Handle", "(*net/http.ServeMux).HandleFunc", "(*net/http.ServeMux).Handle":
			h := args[len(args)-1]
			label := "handler"
			if c, ok := args[len(args)-2].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
				label += " " + constant.StringVal(c.Value)
			}
			sp := spawn{fns: a.funcsOf(h), label: label, multi: true, perRequest: true}
			if callee.Signature.Recv() != nil {
				sp.mux = args[0] // served where a server serves it (served.go)
			}
			return sp, true
		case "time.AfterFunc":
			return spawn{fns: a.funcsOf(args[1]), label: "time.AfterFunc callback in " + a.p.name(fn)}, true
		case "context.AfterFunc":
			return spawn{fns: a.funcsOf(args[1]), label: "context.AfterFunc callback in " + a.p.name(fn)}, true
		case "(*sync.WaitGroup).Go", "(*golang.org/x/sync/errgroup.Group).Go":
			return spawn{fns: a.funcsOf(args[1]), label: "goroutine started in " + a.p.name(fn), joins: map[string]bool{"wg": true}}, true
		}
		if sp, ok := a.serveSpawn(fn, x); ok {
			return sp, true
		}
		return a.wrapperCall(fn, x)
	}
	return spawn{}, false
}

// callbacks is the functions a call runs before it returns, as calls of
// them would, where the callee has no body here and the call graph no
// edge to them: the function values handed to a function of the standard
// library (sync.Map's Range, sort.Slice, a subtest given to testing's
// T.Run, the function of a sync.Once's Do, once.go), whose documentation
// says they run it before returning, unless the call is one that starts
// goroutines (spawns: a handler's registration, time.AfterFunc,
// context.AfterFunc), whose functions are roots instead, or hands it to
// the runtime's finalizer goroutine. Functions handed to other
// dependencies, which may keep them and run them later in goroutines of
// their own, are not followed: what they do is not seen. (A subtest that
// calls t.Parallel runs on after Run returns, alongside its parallel
// siblings; that is not modelled either.)
func (a *run) callbacks(site ssa.CallInstruction, spawns bool) []*ssa.Function {
	common := site.Common()
	callee := common.StaticCallee()
	if callee == nil || spawns || a.follows(callee) || !stdlib(callee) || callee.Pkg.Pkg.Path() == "runtime" {
		return nil
	}
	var out []*ssa.Function
	for _, arg := range common.Args {
		if _, ok := arg.Type().Underlying().(*types.Signature); ok {
			out = append(out, a.funcsOf(arg)...)
		}
	}
	return out
}

// stdlib reports whether fn belongs to the standard library: its
// package path's first element has no dot.
func stdlib(fn *ssa.Function) bool {
	if fn.Pkg == nil {
		return false
	}
	first, _, _ := strings.Cut(fn.Pkg.Pkg.Path(), "/")
	return !strings.Contains(first, ".")
}

// staticCallee is the name (calleeName) of the function instr calls
// statically, "" if instr is no such call.
func staticCallee(instr ssa.Instruction) string {
	if call, ok := instr.(ssa.CallInstruction); ok {
		if callee := call.Common().StaticCallee(); callee != nil {
			return calleeName(callee)
		}
	}
	return ""
}

func calleeName(fn *ssa.Function) string {
	if fn.Signature.Recv() != nil {
		return fmt.Sprintf("(%s).%s", fn.Signature.Recv().Type(), fn.Name())
	}
	if fn.Pkg == nil {
		return fn.Name()
	}
	return fn.Pkg.Pkg.Path() + "." + fn.Name()
}

// funcsOf is the functions a function value can be: a function, a
// closure, a bound method, a handler value's ServeHTTP method, or what
// the call graph says a call of it reaches.
func (a *run) funcsOf(v ssa.Value) []*ssa.Function {
	switch x := v.(type) {
	case *ssa.Function:
		return []*ssa.Function{x}
	case *ssa.MakeClosure:
		return []*ssa.Function{unbound(x.Fn.(*ssa.Function))}
	case *ssa.ChangeType:
		return a.funcsOf(x.X)
	case *ssa.MakeInterface:
		mset := a.p.prog.MethodSets.MethodSet(x.X.Type())
		if sel := mset.Lookup(nil, "ServeHTTP"); sel != nil {
			if fn := a.p.prog.MethodValue(sel); fn != nil && fn.Blocks != nil {
				return []*ssa.Function{fn}
			}
		}
		return a.funcsOf(x.X)
	}
	return nil
}

// unbound is the method a bound method value's wrapper calls (s.count
// for s.count as a value), or fn itself.
func unbound(fn *ssa.Function) *ssa.Function {
	if !strings.HasSuffix(fn.Name(), "$bound") {
		return fn
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if callee := call.Common().StaticCallee(); callee != nil {
					return callee
				}
			}
		}
	}
	return fn
}

// exportedAPI reports whether code outside the package can call fn: an
// exported method of an exported type.
func exportedAPI(fn *ssa.Function) bool {
	if fn.Object() == nil || !fn.Object().Exported() {
		return false
	}
	t := fn.Signature.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Exported()
}

// callersOwn is, for fn an entry point of a library (an exported method,
// a ServeHTTP method), its parameters after the receiver as its caller's
// own: each call is handed objects of its own (a request and its
// response writer, a message to send), which no other call can reach
// until the call publishes them (RacerD's ownership of a method's
// arguments by its caller). The receiver is what the calls share.
func callersOwn(fn *ssa.Function) map[*ssa.Function][]ownership {
	if len(fn.Params) < 2 {
		return nil
	}
	o := make([]ownership, len(fn.Params))
	for i := 1; i < len(o); i++ {
		o[i] = ownFresh
	}
	return map[*ssa.Function][]ownership{fn: o}
}

// externalFuncs is, for an exported method its library's user calls,
// what each parameter of function type is passed: the user's code
// (externalObj); nil if it has none.
func externalFuncs(fn *ssa.Function) []objSet {
	var out []objSet
	for i, p := range fn.Params {
		if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc {
			continue
		}
		if out == nil {
			out = make([]objSet, len(fn.Params))
		}
		out[i] = objSet{externalObj: true}
	}
	return out
}
