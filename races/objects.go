package races

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The points-to analysis (points.go) is context-insensitive: a
// parameter points into everything any caller passes it. A future's
// respond method then writes every future the program makes, and the
// write in one caller's call races with the read in another's, though
// each call made its own. A root's traversal knows better: it reaches a
// function through particular calls, so in each context a parameter
// points into what those calls pass (computed in their own contexts, so
// what a root's code made and handed down three calls deep is still that
// object). An access through a parameter, or a field of one, is then an
// access to what those calls passed.

// objSet is a set of the points-to analysis's objects; nil or empty when
// no better than what the analysis says of the value everywhere.
type objSet = map[int]bool

// objectsIn is what v, in fn reached in context c, can point into: what
// the calls into c passed, where v is a parameter or a field (a field of
// a field) of one; what the points-to analysis says otherwise.
func (a *run) objectsIn(fn *ssa.Function, c *context, v ssa.Value) objSet {
	if set, ok := a.refined(fn, c, v, 0); ok {
		return set
	}
	return a.pts.objects(v)
}

// refined is objectsIn where the context says more than the points-to
// analysis; ok is false where it does not.
func (a *run) refined(fn *ssa.Function, c *context, v ssa.Value, depth int) (objSet, bool) {
	if depth > 8 {
		return nil, false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		i := paramOf(fn, x)
		if i < 0 || i >= len(c.params) || len(c.params[i]) == 0 {
			return nil, false
		}
		return c.params[i], true
	case *ssa.FreeVar:
		// A function literal's or a method value's variable: what the
		// calls into this context passed in the closure (freeVarObjects).
		return freeVarSlot(fn, c, x, 0)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil, false
		}
		if fv, ok := x.X.(*ssa.FreeVar); ok {
			return freeVarSlot(fn, c, fv, len(fn.FreeVars)) // what the captured cell holds
		}
		if cell, ok := x.X.(*ssa.Alloc); ok {
			if p := storedParam(cell); p != nil {
				return a.refined(fn, c, p, depth+1)
			}
		}
		// A load from a field of objects the context knows: what was
		// stored into that field of those objects (a request's body
		// is the body that request was made with, not every body).
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			if addrs, ok := a.refined(fn, c, fa, depth+1); ok {
				return a.pts.contents(addrs)
			}
		}
	case *ssa.Alloc:
		if set := a.pts.objects(x); len(set) > 0 && !set[unknownObj] {
			return set, true
		}
	case *ssa.FieldAddr:
		base, ok := a.refined(fn, c, x.X, depth+1)
		if !ok {
			return nil, false
		}
		return a.pts.fieldsOf(base, x.Field)
	case *ssa.ChangeType:
		return a.refined(fn, c, x.X, depth+1)
	case *ssa.MakeInterface:
		return a.refined(fn, c, x.X, depth+1)
	case *ssa.ChangeInterface:
		return a.refined(fn, c, x.X, depth+1)
	}
	return nil, false
}

// argObjects is, for each parameter of callee at a call from fn in
// context c, what its argument points into where that is less than what
// the points-to analysis says of the parameter; nil if it is nowhere.
func (a *run) argObjects(fn *ssa.Function, c *context, site ssa.CallInstruction, callee *ssa.Function) []objSet {
	out := a.paramObjects(fn, c, site, callee)
	if fv := a.freeVarObjects(fn, c, site.Common(), callee); fv != nil {
		out = withFreeVars(out, callee, fv)
	}
	return out
}

// withFreeVars is params with, after the parameters, a slot for each of
// callee's free variables and then one for what each holds where it is
// a variable's cell (refined's FreeVar cases).
func withFreeVars(params []objSet, callee *ssa.Function, fv []objSet) []objSet {
	out := make([]objSet, len(callee.Params)+len(fv))
	copy(out, params)
	copy(out[len(callee.Params):], fv)
	return out
}

// freeVarObjects is, for each free variable of callee, a function
// literal or a method value called through common from fn in context c,
// what it points into where that is less than what the points-to
// analysis says of it, and then, for each that is a variable's cell,
// what the variable points into; nil if nowhere. The closure made at the
// call (func() { ... }(), go func() { ... }()) binds what its bindings
// are in c, and a captured parameter's cell holds what the parameter
// points into in c; one called through a value (a packer's nextID,
// bound to its connection's manager) binds what the closures the value
// can be bound: a closure made per connection calls that connection's.
func (a *run) freeVarObjects(fn *ssa.Function, c *context, common *ssa.CallCommon, callee *ssa.Function) []objSet {
	n := len(callee.FreeVars)
	if n == 0 || common.IsInvoke() {
		return nil
	}
	sets := make([]objSet, 2*n)
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		if mc.Fn != ssa.Value(callee) {
			return nil
		}
		for i, b := range mc.Bindings {
			if c == nil {
				sets[i] = a.pts.objects(b)
				continue
			}
			sets[i] = a.objectsIn(fn, c, b)
			if cell, ok := b.(*ssa.Alloc); ok && readOnlyCaptured(cell) {
				if p := storedParam(cell); p != nil {
					sets[n+i] = a.objectsIn(fn, c, p)
				}
			}
		}
	} else {
		objs := a.pts.objects(common.Value)
		if c != nil {
			objs = a.objectsIn(fn, c, common.Value)
		}
		if len(objs) == 0 || objs[unknownObj] || objs[externalObj] {
			return nil
		}
		for o := range objs {
			if a.pts.fnOf[o] != callee {
				continue
			}
			nodes := a.pts.binds[o]
			if len(nodes) != n {
				return nil
			}
			for i, nd := range nodes {
				sets[i] = union(sets[i], a.pts.sets[nd])
			}
		}
	}
	some := false
	for i := range sets {
		all := a.pts.objects(callee.FreeVars[i%n])
		known := true
		if i >= n {
			all, known = a.pts.contents(all)
		}
		if set := sets[i]; len(set) == 0 || set[unknownObj] || known && len(set) >= len(all) {
			sets[i] = nil
		} else {
			some = true
		}
	}
	if !some {
		return nil
	}
	return sets
}

// freeVarSlot is what c says of fv, fn's free variable, in the slots
// freeVarObjects fills (off: 0 for the variable, len(fn.FreeVars) for
// what its cell holds).
func freeVarSlot(fn *ssa.Function, c *context, fv *ssa.FreeVar, off int) (objSet, bool) {
	i := slices.Index(fn.FreeVars, fv)
	slot := len(fn.Params) + off + i
	if i < 0 || slot >= len(c.params) || len(c.params[slot]) == 0 {
		return nil, false
	}
	return c.params[slot], true
}

// paramObjects is argObjects for callee's parameters.
func (a *run) paramObjects(fn *ssa.Function, c *context, site ssa.CallInstruction, callee *ssa.Function) []objSet {
	args := passed(site, callee)
	var recv objSet // a method value's receiver, bound in the closure called
	if args == nil {
		if args = boundArgs(site, callee); args == nil {
			return nil
		}
		recv = a.boundReceivers(fn, c, site.Common().Value, callee)
	}
	invoke := site.Common().IsInvoke()
	var out []objSet
	for i, arg := range args {
		var set objSet
		if arg == nil {
			set = recv
		} else if refined, ok := a.refined(fn, c, arg, 0); ok {
			set = refined
		} else {
			set = a.pts.objects(arg)
		}
		if invoke && i == 0 {
			// The interface's objects, handed to a method one of them
			// promotes from a field it embeds: only the receiver's type.
			set = a.pts.typed(set, callee.Params[i].Type())
		}
		if len(set) == 0 || set[unknownObj] || len(set) >= len(a.pts.objects(callee.Params[i])) {
			continue
		}
		if out == nil {
			out = make([]objSet, len(args))
		}
		out[i] = set
	}
	return out
}

// boundReceivers is the receivers a call of method through v, a method
// value (s.connIDManager.Get kept in a packer's field), can run it on:
// what the closures v can be bound, where each is such a closure; nil
// otherwise.
func (a *run) boundReceivers(fn *ssa.Function, c *context, v ssa.Value, method *ssa.Function) objSet {
	objs := a.objectsIn(fn, c, v)
	if len(objs) == 0 || objs[unknownObj] {
		return nil
	}
	var out objSet
	for o := range objs {
		if o == externalObj {
			continue // the user's function: none of the program's
		}
		f := a.pts.fnOf[o]
		binds := a.pts.binds[o]
		if f == nil || !strings.HasPrefix(f.Synthetic, "bound method wrapper") || f.Object() != method.Object() || len(binds) != 1 {
			continue // another callee's closure
		}
		out = union(out, a.pts.sets[binds[0]])
	}
	return out
}

// joinParams is what a context's parameters point into once another call
// enters it: the union, parameter by parameter, where both calls say; no
// better than the points-to analysis where either does not. changed says
// whether it differs from old. Sets are never changed in place: contexts
// share them.
func joinParams(old, new []objSet) (out []objSet, changed bool) {
	for i, o := range old {
		var next objSet // nil: no better than the analysis
		switch {
		case len(o) == 0:
			continue
		case i >= len(new) || len(new[i]) == 0:
		case sameMap(o, new[i]) || !grows(o, new[i]):
			continue
		default:
			next = union(o, new[i])
		}
		if out == nil {
			out = slices.Clone(old) // made only when something changes
		}
		out[i], changed = next, true
	}
	if !changed {
		return old, false
	}
	return out, true
}

// grows reports whether y has an object x does not.
func grows(x, y objSet) bool {
	for o := range y {
		if !x[o] {
			return true
		}
	}
	return false
}

// union is the objects of x and of y, in a new set.
func union(x, y objSet) objSet {
	out := make(objSet, len(x)+len(y))
	for o := range x {
		out[o] = true
	}
	for o := range y {
		out[o] = true
	}
	return out
}

// unionKnown is the objects of x and y, empty (any object) if either is.
func unionKnown(x, y objSet) objSet {
	if len(x) == 0 || len(y) == 0 || x[unknownObj] || y[unknownObj] {
		return nil
	}
	return union(x, y)
}

// freshValue reports whether v, a call's result (or one of its results),
// is always an object the call allocated: every function the call can
// reach returns, in that place, an allocation of its own or the fresh
// result of another such call (a constructor, a method that makes a
// future and returns it). Each function's answer is worked out once; a
// function whose answer is being worked out (recursion) is not fresh.
func (a *run) freshValue(v ssa.Value) bool {
	if poolGet(v) {
		return true
	}
	if callee, i := callOf(v); callee != nil && callee.Blocks == nil && !a.follows(callee) {
		return a.deps.fresh(callee, i) // a dependency's, read from its source
	}
	return a.everyCallee(v, a.freshResult)
}

// callOf is the function v's call (v a call or one of its results)
// always calls, and which of its results v is; nil for a call through
// an interface or a value.
func callOf(v ssa.Value) (*ssa.Function, int) {
	i := 0
	if ex, isExtract := v.(*ssa.Extract); isExtract {
		v, i = ex.Tuple, ex.Index
	}
	if call, ok := v.(*ssa.Call); ok {
		return call.Common().StaticCallee(), i
	}
	return nil, 0
}

// poolGet reports whether v is what a sync.Pool's Get returns: an object
// nobody else holds until it is put back (Put hands it over), new or
// recycled, as a fresh allocation is.
func poolGet(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Common().StaticCallee()
	return callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "sync" && callee.Name() == "Get" &&
		callee.Signature.Recv() != nil && callee.Signature.Recv().Type().String() == "*sync.Pool"
}

// everyCallee reports whether v is a call's result (or one of its
// results) and ok holds of every function the call can run, each a body
// the analysis follows, with the result's index.
func (a *run) everyCallee(v ssa.Value, ok func(callee *ssa.Function, i int) bool) bool {
	index := 0
	if ex, isExtract := v.(*ssa.Extract); isExtract {
		index, v = ex.Index, ex.Tuple
	}
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return false
	}
	callees := a.p.callees(call.Parent(), call)
	if len(callees) == 0 {
		return false
	}
	for _, callee := range callees {
		if !a.follows(callee) || !ok(callee, index) {
			return false
		}
	}
	return true
}

// freshResult reports whether fn's result i is, at every return, an
// object fn allocated, nil, or a fresh call result.
func (a *run) freshResult(fn *ssa.Function, i int) bool {
	k := resultKey{fn, i}
	if f, ok := a.fresh[k]; ok {
		return f
	}
	a.fresh[k] = false // a recursive call is not fresh
	f := everyReturn(fn, i, func(v ssa.Value, _ *ssa.Return) bool { return a.freshIn(v, 0) })
	a.fresh[k] = f
	return f
}

// everyReturn reports whether fn returns at all and, at each of its
// returns, result i satisfies ok.
func everyReturn(fn *ssa.Function, i int, ok func(v ssa.Value, ret *ssa.Return) bool) bool {
	returned := false
	for _, b := range fn.Blocks {
		if ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return); isRet && i < len(ret.Results) {
			if !ok(ret.Results[i], ret) {
				return false
			}
			returned = true
		}
	}
	return returned
}

// freshElems reports whether v, a call's result, is a slice its callee
// made whose elements are all fresh objects, handed to nothing else
// there: at every return, that result is such a slice or nil (go-quartz's
// buildCronField, filling a new slice with a new cronField parsed for
// each part of the expression). An element loaded from it is the
// caller's own, as the call's fresh result would be.
func (a *run) freshElems(v ssa.Value) bool {
	return a.everyCallee(v, a.freshElemsResult)
}

func (a *run) freshElemsResult(fn *ssa.Function, i int) bool {
	k := resultKey{fn, i}
	if f, ok := a.freshSlices[k]; ok {
		return f
	}
	a.freshSlices[k] = false // a recursive call is not
	f := everyReturn(fn, i, func(v ssa.Value, _ *ssa.Return) bool {
		switch r := v.(type) {
		case *ssa.Const:
			return r.IsNil()
		case *ssa.MakeSlice:
			return a.onlyFreshElems(r)
		case *ssa.Slice:
			// make with a constant length: a new array, sliced.
			arr, ok := r.X.(*ssa.Alloc)
			return ok && len(*arr.Referrers()) == 1 && a.onlyFreshElems(r)
		case *ssa.Call, *ssa.Extract:
			return a.freshElems(r) // such a slice another call made
		}
		return false
	})
	a.freshSlices[k] = f
	return f
}

// onlyFreshElems reports whether the elements of ms, a new slice, are
// only ever set to fresh objects, and read without being handed
// anywhere; ms itself is only indexed, measured and returned.
func (a *run) onlyFreshElems(ms ssa.Value) bool {
	for _, ref := range *ms.Referrers() {
		switch x := ref.(type) {
		case *ssa.IndexAddr:
			for _, use := range *x.Referrers() {
				switch y := use.(type) {
				case *ssa.Store:
					if y.Addr != ssa.Value(x) || !a.freshIn(y.Val, 0) {
						return false
					}
				case *ssa.UnOp:
					if y.Op != token.MUL || a.escapes(y) {
						return false
					}
				case *ssa.DebugRef:
				default:
					return false
				}
			}
		case *ssa.Call:
			if !keepsNothing(x) {
				return false
			}
		case *ssa.Return, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// factory reports whether fn is a function of the program whose calls
// each get their own copy of its body in the points-to analysis
// (pointsclone.go): one of its results is always an object it made.
func (a *run) factory(fn *ssa.Function) bool {
	if !a.follows(fn) {
		return false
	}
	for i := range fn.Signature.Results().Len() {
		if holdsPointers(fn.Signature.Results().At(i).Type()) && a.freshResult(fn, i) {
			return true
		}
	}
	return false
}

// freshIn reports whether v, a value a function returns, is fresh.
func (a *run) freshIn(v ssa.Value, steps int) bool {
	if steps > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		return true
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeInterface:
		return a.freshIn(x.X, steps+1)
	case *ssa.ChangeType:
		return a.freshIn(x.X, steps+1)
	case *ssa.TypeAssert:
		return !x.CommaOk && a.freshIn(x.X, steps+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !a.freshIn(e, steps+1) {
				return false
			}
		}
		return true
	case *ssa.Call, *ssa.Extract:
		if arg := a.passedBack(v); arg != nil {
			// What a call hands back of its arguments (a recursive
			// scan filling the set it was given): fresh if that is.
			return a.freshIn(arg, steps+1)
		}
		return a.freshValue(v)
	case *ssa.UnOp:
		// A result a function with defers keeps in a cell until it
		// returns: fresh if everything stored into the cell is.
		cell, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		stored := false
		for _, ref := range *cell.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
				if !a.freshIn(st.Val, steps+1) {
					return false
				}
				stored = true
			}
		}
		return stored
	}
	return false
}
