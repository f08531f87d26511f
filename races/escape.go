package races

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Escape analysis: which objects can another goroutine reach?
//
// The points-to analysis names objects by where they are allocated, so
// two connections made by one constructor are one object to it, and a
// field each handler writes on its own connection looks shared by every
// handler. An object that never leaves the goroutine that made it cannot
// race, whichever goroutine that is. An object escapes (is shared) when
// it is reachable, through fields, elements, what is stored in it and
// what a closure captures, from:
//
//   - a package variable;
//   - what is handed to another goroutine: a go statement's function
//     and arguments, a spawn wrapper's or a handler registration's
//     arguments, the parameters and captured variables of a root's
//     functions;
//   - what is stored into, sent on or put in a map the analysis lost
//     track of (it came from a dependency), or one it gave up on
//     (unknownObj);
//   - what is passed to a dependency outside the standard library, to a
//     standard-library function that hands its arguments to other
//     goroutines (publishers), or to a method of a standard-library
//     object (or a function of one, its first argument: heap.Push(h, x))
//     the analysis lost track of or that is itself shared;
//   - for a library (roots are its exported API), what its exported
//     functions return or take: the library's users hold it.
//
// The standard library is taken at its documented word: a function not
// listed as a publisher uses what it is given only until it returns, or
// keeps it in the object it is a method of. That is an assumption, not a
// proof; docs/rules/races.md lists it among what the mode cannot see.
type escape struct {
	p      *points
	shared map[int]bool
	work   []int
	// deferred is the standard-library calls whose arguments escape once
	// one of them does, or their receiver is lost.
	deferred []stdCall
	children map[int][]int // derived objects, by the object they are of
}

type stdCall struct {
	site ssa.CallInstruction
	recv ssa.Value // nil for a function
	args []ssa.Value
	// handsOver: what it returns is the caller's alone (sync.Pool's
	// Get takes the item out of the pool), whatever it is a method of.
	handsOver bool
}

// sharedObjects computes, for each program the roots make up, the
// objects its goroutines can share. Each main package is a program of
// its own, and each package's tests are one (a test binary): what one
// program's code does cannot make another's objects shared. A library's
// roots are one program, which any of its functions may be part of.
func (a *run) sharedObjects(own []*ssa.Function) {
	a.shared = map[*root]map[int]bool{}
	var tops []*root
	for _, r := range a.roots {
		if r.top == r {
			tops = append(tops, r)
		}
	}
	if a.library {
		s := a.findShared(own, tops, true)
		for _, t := range tops {
			a.shared[t] = s
		}
		return
	}
	var keys []string
	members := map[string][]*root{}
	reached := map[string]map[*ssa.Function]bool{}
	for _, r := range a.roots {
		k := programOf(r.top)
		if reached[k] == nil {
			keys = append(keys, k)
			reached[k] = map[*ssa.Function]bool{}
		}
		if r.top == r {
			members[k] = append(members[k], r)
		}
		for _, fn := range a.reached(r) {
			reached[k][fn] = true
		}
	}
	for _, k := range keys {
		fns := make([]*ssa.Function, 0, len(reached[k]))
		for fn := range reached[k] {
			fns = append(fns, fn)
		}
		s := a.findShared(sortedFuncs(fns), members[k], false)
		for _, t := range members[k] {
			a.shared[t] = s
		}
	}
}

// programOf names the program a top root belongs to: its package's
// main, or its package's test binary.
func programOf(top *root) string {
	if len(top.fns) == 0 || top.fns[0].Pkg == nil {
		return top.label
	}
	return top.fns[0].Pkg.Pkg.Path()
}

// findShared computes the objects other goroutines can reach, given the
// functions a program runs and its top roots.
func (a *run) findShared(own []*ssa.Function, tops []*root, library bool) map[int]bool {
	e := &escape{p: a.pts, shared: map[int]bool{}}
	e.mark(unknownObj)
	for _, g := range a.pts.globals {
		e.mark(g)
	}
	for _, r := range tops {
		for _, fn := range r.fns {
			e.handedOut(fn, false)
		}
	}
	for _, fn := range own {
		e.lostIn(fn)
		if library && exportedFunc(fn) {
			e.handedOut(fn, true)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				a.escapesAt(e, fn, instr)
			}
		}
	}
	e.propagate()
	for changed := true; changed; {
		changed = false
		for _, c := range e.deferred {
			if e.triggers(c) {
				args := c.args
				if c.recv == nil {
					args = args[1:]
				}
				changed = e.values(args...) || changed
				if !c.handsOver {
					changed = e.result(c.site) || changed
				}
			}
		}
		e.propagate()
	}
	return e.shared
}

// handedOut marks what fn's callers outside the analysis can share:
// its parameters and captured variables, and with results its results.
func (e *escape) handedOut(fn *ssa.Function, results bool) {
	for _, v := range fn.Params {
		e.values(v)
	}
	for _, v := range fn.FreeVars {
		e.values(v)
	}
	for i := range fn.Signature.Results().Len() {
		if n, ok := e.p.returns[resultKey{fn, i}]; ok && results {
			e.node(n)
		}
	}
}

// lostIn marks every object of a type a pointer in fn has, where the
// analysis lost track of what that pointer points into (it came back
// from a dependency, or from a caller outside): the fallback (ofType)
// takes it for any object of its type, so none of them is confined.
func (e *escape) lostIn(fn *ssa.Function) {
	lost := func(v ssa.Value) {
		if t := pointee(v.Type()); t != nil && !e.p.tracked(v) {
			for o := range e.p.byType[e.p.ownType(t)] {
				e.mark(o)
			}
		}
	}
	for _, v := range fn.Params {
		lost(v)
	}
	for _, v := range fn.FreeVars {
		lost(v)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok {
				lost(v)
			}
		}
	}
}

// escapesAt marks what instr, in fn, hands to other goroutines.
func (a *run) escapesAt(e *escape, fn *ssa.Function, instr ssa.Instruction) {
	if _, spawns := a.spawnAt(fn, instr); spawns {
		c := instr.(ssa.CallInstruction).Common()
		e.values(c.Value)
		e.values(c.Args...)
		return
	}
	switch x := instr.(type) {
	case *ssa.Store:
		if !e.p.tracked(x.Addr) {
			e.values(x.Val)
		}
	case *ssa.MapUpdate:
		if !e.p.tracked(x.Map) {
			e.values(x.Key, x.Value)
		}
	case *ssa.Send:
		if !e.p.tracked(x.Chan) {
			e.values(x.X)
		}
	case ssa.CallInstruction:
		a.callEscapes(e, fn, x)
	}
}

// callEscapes marks what a call into a dependency hands on.
func (a *run) callEscapes(e *escape, fn *ssa.Function, site ssa.CallInstruction) {
	c := site.Common()
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return // builtins (append, copy, len) keep nothing
	}
	var recv ssa.Value
	var pkg *types.Package
	name := ""
	switch {
	case c.IsInvoke():
		if len(a.p.callees(fn, site)) > 0 && e.p.tracked(c.Value) {
			return // the program's own methods, followed
		}
		recv, pkg, name = c.Value, c.Method.Pkg(), c.Method.Name()
	case c.StaticCallee() != nil:
		callee := c.StaticCallee()
		if a.follows(callee) {
			return
		}
		if callee.Pkg != nil {
			pkg = callee.Pkg.Pkg
		} else if o := callee.Object(); o != nil {
			pkg = o.Pkg()
		}
		name = calleeName(callee)
		if callee.Signature.Recv() != nil && len(c.Args) > 0 {
			recv = c.Args[0]
		}
	default:
		if len(a.p.callees(fn, site)) > 0 {
			return
		}
		// A function value the call graph cannot resolve: anything.
	}
	args := c.Args
	if recv != nil && !c.IsInvoke() {
		args = args[1:]
	}
	if name == "(*sync.Pool).Put" {
		// A hand-over, not a publication: what is put is the next
		// Get's alone, and the putter is done with it.
		return
	}
	if pkg == nil || !stdlibPath(pkg.Path()) || publisher(pkg.Path(), name) {
		e.values(recv)
		e.values(args...)
		e.result(site)
		return
	}
	e.deferred = append(e.deferred, stdCall{site: site, recv: recv, args: args, handsOver: name == "(*sync.Pool).Get"})
}

// publishers: standard-library packages and functions that hand what
// they are given to other goroutines, or keep it where others find it.
var publisherPkgs = []string{"net/http", "net/rpc", "os/signal", "os/exec", "expvar", "runtime", "sync/atomic", "log/slog"}

var publisherFuncs = []string{"(*sync.Map).", "context.WithValue", "context.AfterFunc", "time.AfterFunc"}

func publisher(pkg, name string) bool {
	for _, p := range publisherPkgs {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	for _, f := range publisherFuncs {
		if name == f || strings.HasSuffix(f, ".") && strings.HasPrefix(name, f) {
			return true
		}
	}
	return false
}

// stdlibPath reports whether a package path is the standard library's:
// its first element has no dot.
func stdlibPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// triggers reports whether a standard-library call hands its arguments
// on to where other goroutines find them: it is a method of an object
// the analysis lost track of or that is shared (the method may keep them
// in it), or a function whose first argument is such an object (a
// container's: heap.Push(h, x)). What it is handed is then shared; the
// object itself already is.
func (e *escape) triggers(c stdCall) bool {
	holder := c.recv
	if holder == nil && len(c.args) > 0 {
		holder = c.args[0]
	}
	if holder == nil || !pointerLike(holder.Type()) {
		return false
	}
	return !e.p.tracked(holder) || e.anyShared(holder)
}

func (e *escape) anyShared(vs ...ssa.Value) bool {
	for _, v := range vs {
		if v == nil {
			continue
		}
		for _, n := range e.p.nodesOf(v) {
			for o := range e.p.sets[n] {
				if e.shared[o] {
					return true
				}
			}
		}
	}
	return false
}

// result marks what a call into a dependency returns (external, in
// points.go): it may be something the dependency keeps and shares.
func (e *escape) result(site ssa.CallInstruction) bool {
	v := site.Value()
	if v == nil {
		return false
	}
	changed := e.values(v)
	for _, n := range e.p.parts[v] {
		changed = e.node(n) || changed
	}
	return changed
}

// values marks what each of vs points into; reports whether any was new.
func (e *escape) values(vs ...ssa.Value) bool {
	changed := false
	for _, v := range vs {
		if v == nil {
			continue
		}
		for _, n := range e.p.nodesOf(v) {
			changed = e.node(n) || changed
		}
	}
	return changed
}

func (e *escape) node(n int) bool {
	changed := false
	for o := range e.p.sets[n] {
		changed = e.mark(o) || changed
	}
	return changed
}

func (e *escape) mark(o int) bool {
	if e.shared[o] {
		return false
	}
	e.shared[o] = true
	e.work = append(e.work, o)
	return true
}

// propagate marks everything reachable from what is marked: the
// objects of its fields and elements, what is stored in it, what a
// closure captures.
func (e *escape) propagate() {
	if e.children == nil {
		e.children = map[int][]int{}
		for k, d := range e.p.derived {
			e.children[k[0]] = append(e.children[k[0]], d)
		}
	}
	for len(e.work) > 0 {
		o := e.work[len(e.work)-1]
		e.work = e.work[:len(e.work)-1]
		for _, d := range e.children[o] {
			e.mark(d)
		}
		if n, ok := e.p.content[o]; ok {
			e.node(n)
		}
		for _, n := range e.p.binds[o] {
			e.node(n)
		}
	}
}

// pointerLike reports whether a value of type t can refer to an object.
func pointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Chan, *types.Slice, *types.Signature:
		return true
	}
	return false
}

// exportedFunc reports whether code outside its package can call fn: an
// exported function, or an exported method of an exported type.
func exportedFunc(fn *ssa.Function) bool {
	if fn.Signature.Recv() != nil {
		return exportedAPI(fn)
	}
	return fn.Object() != nil && fn.Object().Exported() && fn.Parent() == nil
}

// confined reports whether every object objs names is one no other
// goroutine of r's program can reach, as the analysis knows base: an
// access through it cannot race.
func (a *run) confined(r *root, base ssa.Value, objs objSet) bool {
	if base == nil || len(objs) == 0 || !a.pts.tracked(base) {
		return false
	}
	shared := a.shared[r.top]
	for o := range objs {
		if shared[o] {
			return false
		}
	}
	return true
}
