package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Where an object goes before an access: the walk registeredAfter
// (registered.go) makes over the object's making path, asking whether
// anything could have let another goroutine find it there.

// goWalk is one walk: the puts into the container the object is taken
// from, which uses of a value count (before: those that can run before
// the access), and the objects known to go nowhere so far (mine: the
// object, and new objects it was stored into). returned is set where the
// walk is of a callee's parameter and the callee returns it.
type goWalk struct {
	a        *run
	p        *puts
	before   func(ssa.Instruction) bool
	mine     map[ssa.Value]bool
	returned bool
}

// letGo reports whether a use of v lets it go where another goroutine
// could find it: stored into anything but the object itself or new
// objects its function made (mine, which then go as it does: pulsar's
// availablePermits pointing back at its consumer), sent, put into a map,
// handed to a call that keeps it, or captured by a function literal that
// reaches a put.
func (w *goWalk) letGo(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	if depth > 6 {
		return true
	}
	for _, ref := range *refs {
		if !w.before(ref) {
			continue
		}
		if w.refLetsGo(v, ref, depth) {
			return true
		}
	}
	return false
}

// refLetsGo is letGo for one use, ref, of v.
func (w *goWalk) refLetsGo(v ssa.Value, ref ssa.Instruction, depth int) bool {
	switch x := ref.(type) {
	case *ssa.DebugRef, *ssa.BinOp, *ssa.Lookup, *ssa.Range, *ssa.Field, *ssa.Go, *ssa.Defer:
		// compared, looked into, or started: the go statement's and
		// deferred call's functions are checked as calls are
		return false
	case *ssa.UnOp:
		return x.Op != token.MUL
	case *ssa.Store:
		if x.Val != v {
			return false // stored into
		}
		if cell, ok := x.Addr.(*ssa.Alloc); ok && capturedCell(cell) != nil {
			return w.cellLetsGo(cell, depth)
		}
		return w.intoMine(x.Addr, depth)
	case *ssa.FieldAddr:
		// A field holding no pointer leads nowhere: handing its address
		// out (an atomic's) hands out no way to the object.
		return !holdsNothing(deref(x.Type())) && w.letGo(x, depth+1)
	case *ssa.IndexAddr, *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.TypeAssert, *ssa.Slice, *ssa.Extract:
		return w.letGo(x.(ssa.Value), depth+1)
	case *ssa.MakeClosure:
		return w.a.reachesPut(x.Fn.(*ssa.Function), w.p)
	case *ssa.Call:
		return w.callLetsGo(x, v, depth)
	case *ssa.Return:
		if w.mine[v] || w.mine[objectOf(v)] {
			w.returned = true // the caller has it back: its walk goes on
			return false
		}
	}
	return true
}

// cellLetsGo is letGo for cell, a captured variable the object is stored
// into: what is loaded from it goes as the object does, and a function
// literal capturing it must reach no put.
func (w *goWalk) cellLetsGo(cell *ssa.Alloc, depth int) bool {
	for _, ref := range *cell.Referrers() {
		if !w.before(ref) {
			continue
		}
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if x.Val == cell {
				return true
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || w.letGo(x, depth+1) {
				return true
			}
		case *ssa.MakeClosure:
			if w.a.reachesPut(x.Fn.(*ssa.Function), w.p) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// callLetsGo is letGo for call, a use of v: the callee keeps it, or what
// it returns holding v goes. The program's own static callee is walked
// itself, its whole body (setConsumerState storing into the consumer's
// atomic state; newChunkedMsgCtxMap returning a new map that points back
// at the consumer, stored into the consumer); others as the escape
// analysis says.
func (w *goWalk) callLetsGo(call *ssa.Call, v ssa.Value, depth int) bool {
	c := call.Common()
	if callee := c.StaticCallee(); callee != nil && callee.Blocks != nil && w.a.p.ownFunc(callee) && !c.IsInvoke() {
		for i, arg := range passed(call, callee) {
			if arg != v {
				continue
			}
			prm := callee.Params[i]
			in := &goWalk{a: w.a, p: w.p, before: anywhere, mine: map[ssa.Value]bool{prm: true}}
			if in.letGo(prm, depth+1) {
				return true
			}
			if in.returned && w.mineNow(call, depth) {
				return true
			}
		}
		return false
	}
	e := w.a.argEscape(call, v)
	if e.kind == escAny {
		return true
	}
	for _, t := range argsAt(call, e.into) {
		if w.intoMine(t, depth) {
			return true
		}
	}
	for _, r := range resultsHolding(call, e.results) {
		if w.letGo(r, depth+1) {
			return true
		}
	}
	return false
}

// mineNow takes v, a value holding the object, as one of mine: where it
// is stored the object goes, and it must go nowhere itself.
func (w *goWalk) mineNow(v ssa.Value, depth int) bool {
	w.mine[v] = true
	return w.letGo(v, depth+1)
}

// intoMine reports whether storing into addr lets what is stored go: addr
// is in none of mine, nor in a new object its function made, which then
// becomes one of mine and must go nowhere itself.
func (w *goWalk) intoMine(addr ssa.Value, depth int) bool {
	if w.mine[objectOf(addr)] {
		return false
	}
	m := w.a.madeRoot(addr)
	if m == nil {
		return true
	}
	return w.mineNow(m, depth)
}

// holdsNothing reports whether a value of type t can lead to no other
// object: pointerFree, where a zero-length array (go.uber.org/atomic's
// [0]func() marker) holds nothing either.
func holdsNothing(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return u.Len() == 0 || holdsNothing(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !holdsNothing(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return pointerFree(t)
}

// anywhere is letGo's before for a callee's body: all of it runs.
func anywhere(ssa.Instruction) bool { return true }
