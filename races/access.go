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
	// atomic: made by a sync/atomic function on a plain field; two
	// atomic accesses never race, an atomic and a plain one do.
	atomic bool
	instr  ssa.Instruction
	pos    token.Pos
	// line and offset are pos's line and offset in its file, worked out
	// once (report): findings are per line, sorted by file and offset.
	line   token.Position
	offset int
	lineID int32 // line's number among the lines of the run's accesses (from 1)
}

// accessesOf lists the accesses of fn's body: loads and stores of fields
// and package variables, and reads and writes of the entries of a map
// held in one. An access through an object fn made itself and has not
// published yet (stored, passed, captured, sent or started with) at that
// point is left out: no other goroutine can reach it.
func (a *run) accessesOf(fn *ssa.Function) []access {
	var out []access
	for _, b := range fn.Blocks {
		if !a.canRun(b) {
			continue // dead code (deadcode.go)
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if loc, pos := location(x.Addr); loc != "" && !a.unpublished(x.Addr, instr) {
					out = append(out, access{loc: loc, base: baseOf(x.Addr), write: true, instr: instr, pos: accessPos(pos, x, x.Addr)})
					out = append(out, a.wholeStruct(x.Addr, true, instr, accessPos(pos, x, x.Addr))...)
				}
			case *ssa.UnOp:
				if x.Op != token.MUL {
					continue
				}
				if loc, pos := location(x.X); loc != "" && !a.unpublished(x.X, instr) {
					out = append(out, access{loc: loc, base: baseOf(x.X), instr: instr, pos: accessPos(pos, x, x.X)})
					out = append(out, a.wholeStruct(x.X, false, instr, accessPos(pos, x, x.X))...)
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
			case *ssa.Range:
				// Ranging over a map reads its entries.
				if _, ok := x.X.Type().Underlying().(*types.Map); ok {
					if loc, pos := mapLocation(x.X); loc != "" {
						out = append(out, access{loc: loc, base: x.X, instr: instr, pos: pick(x.Pos(), pos)})
					}
				}
			case *ssa.Call:
				if acc, ok := a.atomicAccess(x); ok {
					out = append(out, acc)
				}
				if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "len" {
					if _, isMap := x.Common().Args[0].Type().Underlying().(*types.Map); isMap {
						if loc, pos := mapLocation(x.Common().Args[0]); loc != "" {
							out = append(out, access{loc: loc, base: x.Common().Args[0], instr: instr, pos: pick(x.Pos(), pos)})
						}
					}
				}
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

// baseOf is the object an access is to: the struct a field address is
// in, a captured variable itself; nil for a package variable.
func baseOf(addr ssa.Value) ssa.Value {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		return x.X
	case *ssa.Alloc, *ssa.FreeVar:
		return x
	}
	return nil
}

// accessPos is where an access of addr by instr is shown: the field
// selector's position; else the instruction's; else, for the load of a
// variable (which SSA gives none), where the loaded value is first used;
// else where the variable is declared.
func accessPos(loc token.Pos, instr ssa.Instruction, addr ssa.Value) token.Pos {
	if p := pick(loc, instr.Pos()); p.IsValid() {
		return p
	}
	if v, ok := instr.(ssa.Value); ok && v.Referrers() != nil {
		for _, ref := range *v.Referrers() {
			if ref.Pos().IsValid() {
				return ref.Pos()
			}
		}
	}
	if cell := capturedCell(addr); cell != nil {
		return cell.Pos()
	}
	return addr.Pos() // a package variable's declaration
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
		return fieldAddrKey(x), x.Pos()
	case *ssa.Global:
		if x.Pkg == nil || isSyncType(x.Type()) {
			return "", token.NoPos
		}
		return x.Pkg.Pkg.Path() + "." + x.Name(), token.NoPos // the access's own position (accessPos), not the declaration's
	case *ssa.Alloc, *ssa.FreeVar:
		if cell := capturedCell(addr); cell != nil && !isSyncType(cell.Type()) {
			return variableKey(cell), token.NoPos // the access's own position (accessPos)
		}
	}
	return "", token.NoPos
}

// capturedCell is the variable addr is, when it is a local variable a
// function literal captures (the variable's cell in the function that
// declares it, or a closure's free variable bound to it, at any depth of
// nesting); nil otherwise. Such a variable is shared with the closure:
// a goroutine running it writes what its starter reads, as a field is.
func capturedCell(addr ssa.Value) *ssa.Alloc {
	for depth := 0; depth < 8; depth++ {
		switch x := addr.(type) {
		case *ssa.Alloc:
			if !x.Heap || x.Comment == "" || !captured(x) {
				return nil
			}
			return x
		case *ssa.FreeVar:
			addr = binding(x)
		default:
			return nil
		}
	}
	return nil
}

// captured reports whether a function literal captures cell. A method
// value bound to it (m.register(s.onClose)) binds the object the
// variable is, not a variable of its own: it is an object like any other.
func captured(cell *ssa.Alloc) bool {
	for _, ref := range *cell.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok && mc.Fn.(*ssa.Function).Parent() != nil {
			return true
		}
	}
	return false
}

// binding is what the function literal's creation binds fv to, in the
// function that encloses it; nil if it cannot be found.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	index := -1
	for i, v := range fn.FreeVars {
		if v == fv {
			index = i
		}
	}
	parent := fn.Parent()
	if parent == nil || index < 0 {
		return nil
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && index < len(mc.Bindings) {
				return mc.Bindings[index]
			}
		}
	}
	return nil
}

// variableKey names a captured variable as a location: the package, the
// function that declares it, and its name (pkg.Func.v, pkg.T.M.v).
func variableKey(cell *ssa.Alloc) string {
	fn := outermost(cell.Parent())
	name := methodName(fn)
	path := ""
	if fn.Pkg != nil {
		path = fn.Pkg.Pkg.Path() + "."
	}
	return path + name + "." + cell.Comment
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
