package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Publication: when an object a function made becomes reachable from
// elsewhere. Until then no other goroutine can touch it, and its
// accesses cannot race (access.go leaves them out; ownership.go carries
// the same into callees, freshAt).

// unpublished reports whether addr is a field (or a field of a field) of
// an object its function allocated and has not yet made reachable to
// anything else before instr.
func (a *run) unpublished(addr ssa.Value, instr ssa.Instruction) bool {
	if cell, ok := addr.(*ssa.Alloc); ok {
		return a.unpublishedAt(cell, instr)
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	for {
		inner, ok := fa.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		fa = inner
	}
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	return a.unpublishedAt(alloc, instr)
}

// unpublishedAt reports whether nothing has made alloc reachable from
// elsewhere before instr (or by instr itself).
func (a *run) unpublishedAt(alloc *ssa.Alloc, instr ssa.Instruction) bool {
	return !a.published(alloc, instr, true)
}

// unpublishedBefore reports whether nothing but instr itself can have
// made v (an allocation or a parameter) reachable from elsewhere before
// instr runs, in one call of its function.
func (a *run) unpublishedBefore(v ssa.Value, instr ssa.Instruction) bool {
	return !a.published(v, instr, false)
}

// published is publishedBefore from the start, worked out once for each
// value, instruction and self: it depends on the program alone.
func (a *run) published(v ssa.Value, instr ssa.Instruction, self bool) bool {
	k := pubKey{v, instr, self}
	if p, ok := a.pubMemo[k]; ok {
		return p
	}
	p := a.publishedBefore(v, instr, self, map[ssa.Value]bool{}, 0)
	a.pubMemo[k] = p
	return p
}

type pubKey struct {
	v     ssa.Value
	instr ssa.Instruction
	self  bool
}

// publishedBefore reports whether a use of v that runs before instr (or
// is instr, with self) makes it reachable from elsewhere. Storing v into
// an object its function made is no publication until that object is
// published, and neither is passing it to a callee that only returns
// it (or something holding it), until what the call returns is: a
// constructor that builds its parts with helpers and stores them into
// one another publishes them when it hands out the whole. seen holds the
// values being looked at: a cycle (a part holding its whole) adds
// nothing.
func (a *run) publishedBefore(v ssa.Value, instr ssa.Instruction, self bool, seen map[ssa.Value]bool, depth int) bool {
	if seen[v] {
		return false
	}
	if depth > maxPublishDepth {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if ref == instr && !self || ref != instr && !runsBefore(v, ref, instr) {
			continue
		}
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Val != v {
				continue
			}
			if w := newRoot(x.Addr); w != nil && w != v {
				if a.publishedBefore(w, instr, self, seen, depth+1) {
					return true
				}
				continue
			}
			return true
		case *ssa.Extract:
			if a.publishedBefore(x, instr, self, seen, depth+1) {
				return true
			}
		case *ssa.Call:
			switch a.argKind(x, v) {
			case escNone:
			case escReturn:
				if a.publishedBefore(x, instr, self, seen, depth+1) {
					return true
				}
			default:
				return true
			}
		default:
			if a.publishes(v, ref) {
				return true
			}
		}
	}
	return false
}

// maxPublishDepth bounds how far publishedBefore follows what holds v.
const maxPublishDepth = 6

// runsBefore reports whether ref, a use of v, can run before instr in
// one call of their function (for an allocation, on the same object).
func runsBefore(v ssa.Value, ref, instr ssa.Instruction) bool {
	if alloc, ok := v.(*ssa.Alloc); ok {
		return reachesSame(ref, instr, alloc)
	}
	return reaches(ref, instr)
}

// newRoot is the allocation addr is a field or element of (through
// fields and array elements), nil if there is none.
func newRoot(addr ssa.Value) ssa.Value {
	for {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.Alloc:
			return x
		default:
			return nil
		}
	}
}

// reachesSame reports whether, in one call of a function, to can run
// after from with the same allocation alloc made (an allocation, or a
// call that returns a fresh object): some path leads from from to to
// without running alloc again (an allocation in a loop makes
// a new object each time round: what the last one published is not the
// object a later access touches).
func reachesSame(from, to, alloc ssa.Instruction) bool {
	ab, ai := alloc.Block(), index(alloc)
	if from.Block() == to.Block() && index(from) < index(to) && !(ab == from.Block() && index(from) < ai && ai < index(to)) {
		return true
	}
	if ab == from.Block() && index(from) < ai {
		return false // every way on from from runs alloc first
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Block().Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b == to.Block() && (b != ab || index(to) < ai) {
			return true
		}
		if b == ab {
			continue // alloc runs again on this way
		}
		work = append(work, b.Succs...)
	}
	return false
}

// publishes reports whether ref, a use of v (an allocation or the
// address of a field in one), can make it reachable from elsewhere:
// storing it, capturing it, sending it, starting a goroutine with it,
// converting it to an interface, returning it, or passing it to a callee
// that does one of those.
func (a *run) publishes(v ssa.Value, ref ssa.Instruction) bool {
	switch x := ref.(type) {
	case *ssa.FieldAddr:
		return a.escapes(x)
	case *ssa.IndexAddr:
		return a.escapes(x)
	case *ssa.UnOp:
		return x.Op != token.MUL
	case *ssa.Store:
		return x.Val == v
	case *ssa.DebugRef:
		return false
	case *ssa.Call:
		return a.callPublishes(x, v)
	}
	return true
}

// escapes reports whether any use of v publishes it.
func (a *run) escapes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if a.publishes(v, ref) {
			return true
		}
	}
	return false
}

// callPublishes reports whether call can publish v, one of its
// arguments (argKind), even if only by returning it.
func (a *run) callPublishes(call *ssa.Call, v ssa.Value) bool {
	return a.argKind(call, v) != escNone
}

// escapeKind is how a function lets a value go: not at all, only by
// returning it (or something holding it), or in any other way.
type escapeKind uint8

const (
	escNone escapeKind = iota
	escReturn
	escAny
)

// argKind is how call lets v, one of its arguments, go: a sync or
// sync/atomic call keeps nothing, a static callee as its parameter
// (paramKind), any other call anyhow.
func (a *run) argKind(call *ssa.Call, v ssa.Value) escapeKind {
	if syncCall(call) {
		return escNone
	}
	c := call.Common()
	callee := c.StaticCallee()
	if callee == nil || callee.Blocks == nil || c.IsInvoke() || len(c.Args) != len(callee.Params) {
		return escAny
	}
	k := escNone
	for i, arg := range c.Args {
		if arg == v {
			k = max(k, a.paramKind(callee.Params[i]))
		}
	}
	return k
}

// paramKind is how a callee lets a parameter go, worked out once; a
// parameter whose answer is being worked out (recursion) goes anyhow.
func (a *run) paramKind(p *ssa.Parameter) escapeKind {
	if k, ok := a.escaping[p]; ok {
		return k
	}
	a.escaping[p] = escAny
	k := a.kindOf(p, 0)
	a.escaping[p] = k
	return k
}

// kindOf is how v's function lets v go: returning it, storing it into an
// object the function made (as that object goes), passing it on.
func (a *run) kindOf(v ssa.Value, depth int) escapeKind {
	if depth > maxPublishDepth {
		return escAny
	}
	refs := v.Referrers()
	if refs == nil {
		return escNone
	}
	k := escNone
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.Return:
			k = max(k, escReturn)
		case *ssa.Store:
			if x.Val != v {
				continue
			}
			if w := newRoot(x.Addr); w != nil && w != v {
				k = max(k, a.kindOf(w, depth+1))
			} else {
				k = escAny
			}
		case *ssa.Extract:
			k = max(k, a.kindOf(x, depth+1))
		case *ssa.Call:
			switch a.argKind(x, v) {
			case escNone:
			case escReturn:
				k = max(k, a.kindOf(x, depth+1))
			default:
				k = escAny
			}
		default:
			if a.publishes(v, ref) {
				k = escAny
			}
		}
		if k == escAny {
			return k
		}
	}
	return k
}

// syncCall reports whether call is a function or method of sync or
// sync/atomic: it uses the address it is given and keeps nothing.
func syncCall(call *ssa.Call) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil {
		return false
	}
	path := callee.Pkg.Pkg.Path()
	return path == "sync" || path == "sync/atomic"
}
