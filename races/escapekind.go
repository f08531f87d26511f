package races

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// How a function lets a value go (its escape kinds): the summaries the
// publication checks (publish.go) consult at a call, worked out once for
// each parameter of each function.

// escapeKind is how a function lets a value go: not at all, only by
// returning it (or something holding it), by handing it to goroutines
// it starts that keep it (and perhaps returning it), or in any other way.
type escapeKind uint8

const (
	escNone escapeKind = iota
	escReturn
	// escSpawned: a constructor that starts its workers on what it
	// builds (badger's newLevelsController opening tables in goroutines
	// it waits for): another goroutine has it, but one the caller's
	// instance started.
	escSpawned
	escAny
)

// argKind is how call lets v, one of its arguments, go: a sync or
// sync/atomic call keeps nothing; a static callee as its parameter
// (paramKind), a call through an interface or a function value as the
// worst of the functions the call graph says it can run; a call of code
// the analysis has no body for, anyhow.
func (a *run) argKind(call *ssa.Call, v ssa.Value) escapeKind {
	return a.argEscape(call, v).kind
}

// argEscape is argKind, which of the call's results may hold v, and
// which of its arguments' objects v may be stored into (a bit for each
// result or parameter, all of them past 64).
func (a *run) argEscape(call *ssa.Call, v ssa.Value) paramEscape {
	if syncCall(call) || keepsNothing(call) {
		return paramEscape{}
	}
	c := call.Common()
	if !slices.Contains(c.Args, v) && !(c.IsInvoke() && c.Value == v) {
		return paramEscape{} // v is the function called: running it hands it nothing
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "append", "ssa:wrapnilchk", "Add", "Slice", "SliceData", "String", "StringData":
			// What the call returns holds v, or the elements of the
			// slice appended (unsafe's functions: v seen another way).
			return paramEscape{escReturn, resultBit(0), 0}
		case "close", "print", "println", "min", "max":
			return paramEscape{}
		}
		return paramEscape{escAny, allResults, 0} // panic; copy of pointers
	}
	callees := []*ssa.Function{c.StaticCallee()}
	if dep := callees[0]; dep != nil && dep.Blocks == nil && !c.IsInvoke() {
		// A dependency's function (no body is built for it): its
		// source may show it keeps v only in what it returns.
		if e, ok := a.depKeeps(dep, c.Args, v); ok {
			return e
		}
		if e, ok := stdlibWord(dep, c.Args, v); ok {
			return e
		}
		return paramEscape{escAny, allResults, 0}
	}
	if callees[0] == nil {
		// A call through an interface or a function value (a
		// functional option, opt(d)): how every function the call
		// graph says it can run lets v go.
		callees = a.p.callees(call.Parent(), call)
	}
	anyhow := paramEscape{escAny, allResults, 0}
	if len(callees) == 0 {
		// No function of the program is ever called here: the callee
		// is code the program does not hold (a callback a library's
		// user supplies, sentry-go's TracesSampler handed the span it
		// is building). Such code is taken to use what it is handed
		// and keep none of it, as a standard-library function is
		// (escape.go); docs/rules/races.md lists the assumption.
		return paramEscape{}
	}
	var out paramEscape
	for _, callee := range callees {
		args := passed(call, callee)
		if callee == nil || callee.Blocks == nil || !a.follows(callee) || args == nil {
			return anyhow
		}
		for i, arg := range args {
			if arg == v {
				e := a.paramEscape(callee.Params[i])
				if callee == call.Parent() && arg == callee.Params[i] {
					// A function handing a parameter on to itself, in
					// its place (scan(topic, d+1, next, subs)): that
					// lets it go no further than the function does
					// anyway, but perhaps back in what the call returns.
					e = paramEscape{escReturn, allResults, 0}
				}
				out = paramEscape{max(out.kind, e.kind), out.results | e.results, out.into | e.into}
			}
		}
	}
	return out
}

// depKeeps is how callee, a function of a dependency with no body here,
// lets v, passed in args (its receiver first, for a method), go, where its source shows it keeps v only in
// one of its results (depSources.keptIn); ok is false otherwise.
func (a *run) depKeeps(callee *ssa.Function, args []ssa.Value, v ssa.Value) (paramEscape, bool) {
	var e paramEscape
	for i, arg := range args {
		if arg != v {
			continue
		}
		r, ok := a.deps.keptIn(callee, i)
		if !ok {
			return paramEscape{}, false
		}
		if r >= 0 {
			e.kind, e.results = escReturn, e.results|resultBit(r)
		}
	}
	return e, true
}

// stdlibWord is how a function of the standard library that is not a
// publisher (escape.go) lets v, one of args, go, taken at the library's
// documented word as the escape analysis takes it: it uses what it is
// given until it returns, perhaps handing it back in what it returns, or
// keeps it in the object it is a method of, or in the container its
// first argument is (heap.Push(h, x)) where that can hold a pointer.
// json.Unmarshal(data, &m.ID) fills m.ID in and keeps nothing of m.
func stdlibWord(callee *ssa.Function, args []ssa.Value, v ssa.Value) (paramEscape, bool) {
	if !stdlib(callee) || callee.Pkg == nil || publisher(callee.Pkg.Pkg.Path(), calleeName(callee)) {
		return paramEscape{}, false
	}
	e := paramEscape{kind: escReturn, results: allResults}
	if len(args) > 0 && args[0] != v && reachesPointers(args[0].Type()) {
		e.into = resultBit(0) // the receiver, or a container: v goes where it goes
	}
	return e, true
}

// keepsNothing reports whether call is of a builtin that keeps none of
// its arguments: len, cap, delete, clear, and copy between slices whose
// elements hold no pointers (bytes copied in and out of a buffer: a
// copy of pointers hands what they point to over to the destination).
func keepsNothing(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "len", "cap", "delete", "clear":
		return true
	case "copy":
		s, ok := call.Call.Args[0].Type().Underlying().(*types.Slice)
		return ok && !holdsPointers(s.Elem())
	}
	return false
}

// argsAt is the arguments of call (its receiver first, for a call
// through an interface) at the parameters into says.
func argsAt(call *ssa.Call, into uint64) []ssa.Value {
	if into == 0 {
		return nil
	}
	c := call.Common()
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	var out []ssa.Value
	for i, arg := range args {
		if into&resultBit(i) != 0 {
			out = append(out, arg)
		}
	}
	return out
}

// allResults says every result of a call may hold a value.
const allResults = ^uint64(0)

// resultsHolding is what call gives that may hold a value in the results
// results says: the call itself when it has one result, else its
// extracts of those results (a constructor's error does not hold what
// it built).
func resultsHolding(call *ssa.Call, results uint64) []ssa.Value {
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		if results == 0 {
			return nil
		}
		return []ssa.Value{call}
	}
	var out []ssa.Value
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && (ex.Index >= 64 || results&(1<<ex.Index) != 0) {
			out = append(out, ex)
		}
	}
	return out
}

// paramEscape is how a function lets a parameter go, which of its
// results may hold it, and into which of its other parameters' objects
// it may be stored.
type paramEscape struct {
	kind    escapeKind
	results uint64
	into    uint64
}

// paramKind is how a callee lets a parameter go, worked out once; a
// parameter whose answer is being worked out (recursion) goes anyhow.
func (a *run) paramKind(p *ssa.Parameter) escapeKind {
	return a.paramEscape(p).kind
}

// paramEscape is paramKind, and which results may hold p, worked out
// once.
func (a *run) paramEscape(p *ssa.Parameter) paramEscape {
	if e, ok := a.escaping[p]; ok {
		return e
	}
	a.escaping[p] = paramEscape{escAny, allResults, 0}
	w := &escWalk{seen: map[ssa.Value]bool{}}
	e := paramEscape{kind: a.kindIn(p, p, 0, w), results: w.results, into: w.into}
	a.escaping[p] = e
	return e
}

// escWalk is what kindIn has seen, and the results through which what
// it follows is returned.
type escWalk struct {
	seen    map[ssa.Value]bool
	results uint64
	into    uint64 // the parameters whose objects it is stored into
}

// kindOf is how v's function lets v go: returning it, storing it into an
// object the function made (as that object goes), passing it on.
func (a *run) kindOf(v ssa.Value, depth int) escapeKind {
	w := &escWalk{seen: map[ssa.Value]bool{}}
	k := a.kindIn(v, v, depth, w)
	if w.into != 0 {
		return escAny // stored into a parameter's object: only a parameter's summary follows that
	}
	return k
}

// kindIn is kindOf for v, which is of or a part of it (a field's
// address, of converted, a literal capturing it): storing v into of's
// own object lets nothing go.
func (a *run) kindIn(of, v ssa.Value, depth int, w *escWalk) escapeKind {
	if w.seen[v] {
		return escNone // a cycle (a part holding its whole) adds nothing
	}
	if depth > maxPublishDepth {
		w.results = allResults
		return escAny
	}
	w.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return escNone
	}
	k := escNone
	for _, ref := range *refs {
		if panicsWithText(ref.Block()) {
			continue // on its way to panic with a message: nothing goes on
		}
		switch x := ref.(type) {
		case *ssa.Return:
			k = max(k, escReturn)
			for i, r := range x.Results {
				if r == v {
					w.results |= resultBit(i)
				}
			}
		case *ssa.Store:
			if x.Val != v || newBase(x.Addr) == of {
				continue
			}
			if p, ok := newBase(x.Addr).(*ssa.Parameter); ok {
				if !w.storedInto(p) {
					k = escAny
				}
				continue
			}
			if root := a.madeRoot(x.Addr); root != nil && root != v {
				k = max(k, a.kindIn(root, root, depth+1, w))
			} else {
				k = escAny
			}
		case *ssa.Extract, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.MakeInterface, *ssa.ChangeType, *ssa.TypeAssert:
			if !pointerFreeField(x) {
				k = max(k, a.kindIn(of, x.(ssa.Value), depth+1, w))
			}
		case *ssa.MakeClosure:
			k = max(k, a.closureKind(x, v), a.kindIn(of, x, depth+1, w))
		case *ssa.Defer:
			if !syncCommon(&x.Call) && (x.Call.Value != v || x.Call.IsInvoke() || slices.Contains(x.Call.Args, v)) {
				k = escAny
			}
		case *ssa.Call:
			k = max(k, a.callKind(of, x, v, depth, w))
		case *ssa.Go:
			if a.spawnKeeps(x, v) {
				k = max(k, escSpawned)
			} else {
				k = escAny
			}
		default:
			if a.publishes(v, ref) {
				k = escAny
			}
		}
		if k == escAny {
			w.results = allResults
			return k
		}
	}
	return k
}

// callKind is kindIn for call, a use of v: how the callee lets v go,
// and then as the results that may hold it go, and as the arguments it
// is stored into go.
func (a *run) callKind(of ssa.Value, call *ssa.Call, v ssa.Value, depth int, w *escWalk) escapeKind {
	e := a.argEscape(call, v)
	k := e.kind
	if k == escAny {
		return k
	}
	for _, r := range resultsHolding(call, e.results) {
		k = max(k, a.kindIn(r, r, depth+1, w))
	}
	for _, t := range argsAt(call, e.into) {
		switch b := newBase(t); {
		case b == of || b != nil && w.seen[b]:
		case isParameter(b):
			if !w.storedInto(b.(*ssa.Parameter)) {
				k = escAny
			}
		default:
			if root := a.madeRoot(t); root != nil {
				k = max(k, a.kindIn(root, root, depth+1, w))
			} else {
				k = escAny
			}
		}
	}
	return k
}

// isParameter reports whether v is a function's parameter.
func isParameter(v ssa.Value) bool {
	_, ok := v.(*ssa.Parameter)
	return ok
}

// storedInto records that the value walked is stored into what p, a
// parameter of its function, points into; false if p is not one of its
// function's parameters.
func (w *escWalk) storedInto(p *ssa.Parameter) bool {
	i := paramOf(p.Parent(), p)
	if i < 0 {
		return false
	}
	w.into |= resultBit(i)
	return true
}

// resultBit is result i's bit in a set of results (or parameters).
func resultBit(i int) uint64 {
	if i >= 64 {
		return allResults
	}
	return 1 << i
}

// spawnKeeps reports whether the goroutine g starts keeps v, one of its
// arguments, to itself: its function is known and lets v go no further
// than returning it.
func (a *run) spawnKeeps(g *ssa.Go, v ssa.Value) bool {
	c := g.Common()
	callee := c.StaticCallee()
	if callee == nil || callee.Blocks == nil || c.IsInvoke() || len(c.Args) != len(callee.Params) {
		return false
	}
	if _, closure := v.(*ssa.MakeClosure); c.Value == v && !closure {
		return false
	}
	for i, arg := range c.Args {
		if arg == v && a.paramKind(callee.Params[i]) == escAny {
			return false
		}
	}
	return true
}

// closureKind is how the body of mc, a function literal or method
// value, lets v go when mc captures it.
func (a *run) closureKind(mc *ssa.MakeClosure, v ssa.Value) escapeKind {
	fn := mc.Fn.(*ssa.Function)
	k := escNone
	for i, b := range mc.Bindings {
		if b == v && i < len(fn.FreeVars) {
			k = max(k, a.freeVarKind(fn.FreeVars[i]))
		}
	}
	if k == escReturn || k == escSpawned {
		return escAny // what calls of it return is not followed
	}
	return k
}

// freeVarKind is how a function literal lets a captured value go: the
// free variable itself, and what it loads from it when it is a
// variable's cell.
func (a *run) freeVarKind(fv *ssa.FreeVar) escapeKind {
	k := a.kindOf(fv, 0)
	for _, ref := range *fv.Referrers() {
		if l, ok := ref.(*ssa.UnOp); ok && l.Op == token.MUL {
			k = max(k, a.kindOf(l, 1))
		}
	}
	return k
}

// panicsWithText reports whether b ends in a panic whose value is a
// string or other value with no pointers (panic(fmt.Sprintf("...%v",
// h))): what b does with a value lets it go nowhere a caller, or a
// recover, can reach; the goroutine's call stops there.
func panicsWithText(b *ssa.BasicBlock) bool {
	if b == nil || len(b.Instrs) == 0 {
		return false
	}
	p, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	if !ok {
		return false
	}
	x := p.X
	if mi, ok := x.(*ssa.MakeInterface); ok {
		x = mi.X
	}
	_, basic := x.Type().Underlying().(*types.Basic)
	return basic
}
