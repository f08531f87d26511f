package races

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// What a call hands back. A function that returns one of its
// parameters, on every return, gives its caller back the object it was
// passed: a fill-and-return helper, a recursive scan that passes its
// accumulator down and returns it, a registry of hooks returning what
// the last hook returned when each hands back what it was given
// (mochi-mqtt's OnSelectSubscribers). The call's result is then that
// argument, as unshared as it was (ownership.go).

// noParamYet is backParam's answer for a value that constrains nothing:
// nil, or a call of the function itself on the first pass.
const noParamYet = -2

// passedBack is, for v a call's result (or one of its results), the
// argument every callee the call can reach returns there; nil if there
// is none.
func (a *run) passedBack(v ssa.Value) ssa.Value {
	call, i := callResult(v)
	if call == nil {
		return nil
	}
	callees := a.p.callees(call.Parent(), call)
	if len(callees) == 0 {
		return nil
	}
	var arg ssa.Value
	for _, callee := range callees {
		if !a.follows(callee) {
			return nil
		}
		j := a.passThrough(callee, i)
		args := passed(call, callee)
		if j < 0 || j >= len(args) || arg != nil && args[j] != arg {
			return nil
		}
		arg = args[j]
	}
	return arg
}

// callResult is the call v is the result of, or one of the results of,
// and which; nil if v is neither.
func callResult(v ssa.Value) (*ssa.Call, int) {
	i := 0
	if ex, ok := v.(*ssa.Extract); ok {
		v, i = ex.Tuple, ex.Index
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, 0
	}
	return call, i
}

// passThrough is the parameter fn returns as its result i on every
// return (nil aside), -1 if there is none. A call of fn inside fn is
// taken first to constrain nothing, then checked to pass the parameter
// found in its own place; a call of a function still being worked out
// (mutual recursion) returns nothing known.
func (a *run) passThrough(fn *ssa.Function, i int) int {
	k := resultKey{fn, i}
	if j, ok := a.passes[k]; ok {
		return j
	}
	a.passes[k] = -1
	j := a.returnsParam(fn, i, -1)
	if j >= 0 && a.returnsParam(fn, i, j) != j {
		j = -1
	}
	a.passes[k] = j
	return j
}

// returnsParam is the parameter every return of fn gives as result i,
// its own recursive calls taken to return parameter want (with want < 0,
// to constrain nothing); -1 if there is none.
func (a *run) returnsParam(fn *ssa.Function, i, want int) int {
	j := noParamYet
	for _, ret := range returns(fn) {
		r := ret.(*ssa.Return)
		if i >= len(r.Results) {
			return -1
		}
		if j = meetParam(j, a.backParam(fn, i, r.Results[i], want, nil)); j == -1 {
			return -1
		}
	}
	if j == noParamYet {
		return -1
	}
	return j
}

// backParam is the parameter of fn that v, returned as fn's result i,
// always is: through conversions, phis, and calls that hand back one of
// their arguments, and variables a function with defers keeps in cells;
// noParamYet for nil; -1 if none. on is the phis and cells being worked
// out: one met again in a loop (subs = hook.OnSelect(subs)) adds nothing
// to what its other values give.
func (a *run) backParam(fn *ssa.Function, i int, v ssa.Value, want int, on []ssa.Value) int {
	if len(on) > 8 {
		return -1
	}
	if in := converted(v); in != nil {
		return a.backParam(fn, i, in, want, on)
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.IsNil() {
			return noParamYet
		}
	case *ssa.Parameter:
		return paramOf(fn, x)
	case *ssa.Phi:
		if slices.Contains(on, v) {
			return noParamYet
		}
		return a.backAll(fn, i, x.Edges, want, append(on, v))
	case *ssa.UnOp:
		cell, ok := x.X.(*ssa.Alloc)
		if x.Op != token.MUL || !ok || cell.Parent() != fn {
			return -1
		}
		if slices.Contains(on, ssa.Value(cell)) {
			return noParamYet
		}
		stored, ok := cellStores(cell)
		if !ok {
			return -1
		}
		return a.backAll(fn, i, stored, want, append(on, cell))
	case *ssa.Call, *ssa.Extract:
		return a.backCall(fn, i, v, want, on)
	}
	return -1
}

// backAll is what backParam gives for every value of vs.
func (a *run) backAll(fn *ssa.Function, i int, vs []ssa.Value, want int, on []ssa.Value) int {
	j := noParamYet
	for _, e := range vs {
		if j = meetParam(j, a.backParam(fn, i, e, want, on)); j == -1 {
			return -1
		}
	}
	return j
}

// cellStores is what is stored into a variable's cell, if the cell is
// only stored into and loaded from (its address goes nowhere else).
func cellStores(cell *ssa.Alloc) ([]ssa.Value, bool) {
	var stored []ssa.Value
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != ssa.Value(cell) {
				return nil, false
			}
			stored = append(stored, r.Val)
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return stored, len(stored) > 0
}

// backCall is backParam for v, a call's result.
func (a *run) backCall(fn *ssa.Function, i int, v ssa.Value, want int, on []ssa.Value) int {
	call, idx := callResult(v)
	if call == nil {
		return -1
	}
	callees := a.p.callees(fn, call)
	if len(callees) == 0 {
		return -1
	}
	j := noParamYet
	for _, callee := range callees {
		if !a.follows(callee) {
			return -1
		}
		k := want
		if callee != fn || idx != i {
			k = a.passThrough(callee, idx)
		} else if want < 0 {
			continue // fn itself, on the first pass
		}
		args := passed(call, callee)
		if k < 0 || k >= len(args) {
			return -1
		}
		if j = meetParam(j, a.backParam(fn, i, args[k], want, on)); j == -1 {
			return -1
		}
	}
	return j
}

// meetParam is what two answers of backParam agree on.
func meetParam(x, y int) int {
	switch {
	case x == noParamYet:
		return y
	case y == noParamYet, x == y:
		return x
	}
	return -1
}
