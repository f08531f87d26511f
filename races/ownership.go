package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// argOrigins is, for each parameter of callee at a call from fn (the
// receiver first, for a call through an interface), whether its argument
// points into an object the root's own code allocated (an own object, of
// one instance of the root).
func (a *run) argOrigins(fn *ssa.Function, c *context, site ssa.CallInstruction, callee *ssa.Function) []ownership {
	args := passed(site, callee)
	if args == nil {
		return nil
	}
	var out []ownership
	for i, arg := range args {
		if o := a.own(fn, c, arg); o != notOwn {
			if out == nil {
				out = make([]ownership, len(args))
			}
			out[i] = o
		}
	}
	return out
}

// sameOrigins reports whether two contexts' parameters are own alike.
func sameOrigins(x, y []ownership) bool {
	for i := range max(len(x), len(y)) {
		if originAt(x, i) != originAt(y, i) {
			return false
		}
	}
	return true
}

func originAt(x []ownership, i int) ownership {
	if i >= 0 && i < len(x) {
		return x[i]
	}
	return notOwn
}

// meetOrigins keeps in old, for each parameter, the lesser ownership
// new agrees on, and reports whether old changed.
func meetOrigins(old, new []ownership) bool {
	changed := false
	for i := range old {
		if n := originAt(new, i); n < old[i] {
			old[i] = n
			changed = true
		}
	}
	return changed
}

// ownership is how surely an object is one instance of a root's own.
type ownership uint8

const (
	notOwn ownership = iota
	// ownHere: reached through a variable a function literal captured
	// from the function that made it; its own in the instance that made
	// the literal, if that instance runs it (the same root).
	ownHere
	// ownMade: allocated by the root's own code (directly, or by a call
	// that returns what it allocates) and reached without a load: no
	// other instance of any root can reach it except through a copy
	// published elsewhere, whose accesses are not own.
	ownMade
)

// own reports whether v, in fn, points into an object r's own code
// allocated: an allocation of fn, a field of one, what a call returns
// that always returns an object it allocated (fresh), or a parameter
// every call in r passes one to. One instance of r made it, so another
// instance of r cannot reach it except through a copy published
// elsewhere, whose accesses are not own.
func (a *run) own(fn *ssa.Function, c *context, v ssa.Value) ownership {
	for i := 0; i < 16; i++ {
		switch x := v.(type) {
		case *ssa.Alloc:
			return ownMade
		case *ssa.Call, *ssa.Extract:
			if a.freshValue(v) {
				return ownMade
			}
			return notOwn
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.FreeVar:
			// A function literal's variable bound to a cell its
			// enclosing function declared: that function's own, in the
			// instance that made the literal and runs it.
			if _, isCell := binding(x).(*ssa.Alloc); isCell {
				return ownHere
			}
			return notOwn
		case *ssa.Parameter:
			return originAt(c.origins, paramOf(fn, x))
		case *ssa.UnOp:
			// A variable captured by a literal lives in a cell: what is
			// loaded is as own as the least own value stored into it.
			cell, ok := x.X.(*ssa.Alloc)
			if !ok || x.Op != token.MUL {
				return notOwn
			}
			return a.cellOwn(fn, c, cell, i)
		default:
			return notOwn
		}
	}
	return notOwn
}

// cellOwn is the least ownership of the values stored into a variable's
// cell (notOwn if none is, or the cell has no store).
func (a *run) cellOwn(fn *ssa.Function, c *context, cell *ssa.Alloc, steps int) ownership {
	least, stored := ownMade, false
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		if _, self := st.Val.(*ssa.UnOp); self || steps > 8 {
			return notOwn // loads into cells: not followed further
		}
		stored = true
		least = min(least, a.own(fn, c, st.Val))
	}
	if !stored {
		return notOwn
	}
	return least
}
