package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// access is a read or write of a location in a function body.
type access struct {
	loc   string    // Session.ptmx, Session.conns[] (a map's entries), pkg.v
	base  ssa.Value // the object: a field's struct pointer, a map; nil for a package variable
	write bool
	instr ssa.Instruction
	pos   token.Pos
}

// accessesOf lists the accesses of fn's body: loads and stores of fields
// and package variables, and reads and writes of the entries of a map
// held in one. An access through an object fn made itself and has not
// published yet (stored, passed, captured, sent or started with) at that
// point is left out: no other goroutine can reach it.
func (a *run) accessesOf(fn *ssa.Function) []access {
	var out []access
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if loc, pos := location(x.Addr); loc != "" && !a.unpublished(x.Addr, instr) {
					out = append(out, access{loc: loc, base: baseOf(x.Addr), write: true, instr: instr, pos: pick(pos, x.Pos())})
				}
			case *ssa.UnOp:
				if x.Op != token.MUL {
					continue
				}
				if loc, pos := location(x.X); loc != "" && !a.unpublished(x.X, instr) {
					out = append(out, access{loc: loc, base: baseOf(x.X), instr: instr, pos: pick(pos, x.Pos())})
				}
			case *ssa.MapUpdate:
				if loc, pos := mapLocation(x.Map); loc != "" {
					out = append(out, access{loc: loc, base: x.Map, write: true, instr: instr, pos: pick(x.Pos(), pos)})
				}
			case *ssa.Lookup:
				if _, ok := x.X.Type().Underlying().(*types.Map); ok {
					if loc, pos := mapLocation(x.X); loc != "" {
						out = append(out, access{loc: loc, base: x.X, instr: instr, pos: pick(x.Pos(), pos)})
					}
				}
			case *ssa.Call:
				if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "delete" {
					if loc, pos := mapLocation(x.Common().Args[0]); loc != "" {
						out = append(out, access{loc: loc, base: x.Common().Args[0], write: true, instr: instr, pos: pick(x.Pos(), pos)})
					}
				}
			}
		}
	}
	return out
}

// baseOf is the struct a field address is in; nil for anything else.
func baseOf(addr ssa.Value) ssa.Value {
	if fa, ok := addr.(*ssa.FieldAddr); ok {
		return fa.X
	}
	return nil
}

func pick(a, b token.Pos) token.Pos {
	if a.IsValid() {
		return a
	}
	return b
}

// location names what addr points to: a field of a named struct (T.f)
// or a package variable (pkg.v); "" for anything else (a local, an
// element of a slice or array).
func location(addr ssa.Value) (string, token.Pos) {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		if isSyncType(x.Type()) {
			return "", token.NoPos
		}
		return fieldKey(x.X.Type(), x.Field), x.Pos()
	case *ssa.Global:
		if x.Pkg == nil || isSyncType(x.Type()) {
			return "", token.NoPos
		}
		return x.Pkg.Pkg.Path() + "." + x.Name(), x.Pos()
	}
	return "", token.NoPos
}

// isSyncType reports whether ptr points to a value of a sync or
// sync/atomic type, whose own methods order their accesses.
func isSyncType(ptr types.Type) bool {
	p, ok := ptr.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	path := named.Obj().Pkg().Path()
	return path == "sync" || path == "sync/atomic"
}

// mapLocation names the entries of a map value loaded from a field or
// package variable: T.f[].
func mapLocation(m ssa.Value) (string, token.Pos) {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", token.NoPos
	}
	if loc, pos := location(load.X); loc != "" {
		return loc + "[]", pos
	}
	return "", token.NoPos
}

// unpublished reports whether addr is a field (or a field of a field) of
// an object its function allocated and has not yet made reachable to
// anything else before instr.
func (a *run) unpublished(addr ssa.Value, instr ssa.Instruction) bool {
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
	for _, ref := range *alloc.Referrers() {
		if !a.publishes(alloc, ref) {
			continue
		}
		if ref == instr || reaches(ref, instr) {
			return false
		}
	}
	return true
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
// arguments: a sync or sync/atomic call never does, a static callee does
// if its parameter escapes, any other call may.
func (a *run) callPublishes(call *ssa.Call, v ssa.Value) bool {
	if syncCall(call) {
		return false
	}
	c := call.Common()
	callee := c.StaticCallee()
	if callee == nil || callee.Blocks == nil || c.IsInvoke() || len(c.Args) != len(callee.Params) {
		return true
	}
	for i, arg := range c.Args {
		if arg == v && a.paramEscapes(callee.Params[i]) {
			return true
		}
	}
	return false
}

// paramEscapes reports whether a callee can publish what a parameter
// points to. A parameter whose answer is being computed (recursion)
// counts as escaping.
func (a *run) paramEscapes(p *ssa.Parameter) bool {
	if e, ok := a.escaping[p]; ok {
		return e
	}
	a.escaping[p] = true
	e := a.escapes(p)
	a.escaping[p] = e
	return e
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
