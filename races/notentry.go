package races

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Exported methods of a locking type that are still not entry points of
// a library: they are exported for another package's contract, or for
// set-up, not to be called at any time beside the others (libraryRoots).

// sortContract reports whether fn is one of the methods a type has so
// that sort and container/heap can order it (Len, Less and Swap; Push
// and Pop beside them for a heap), and its type has all of them: they
// are exported for those packages, which call them from the caller's
// code, under its locks (a queue kept as a heap under the mutex of the
// type that holds it, lossyconn's TimedSender), not as entry points of
// their own.
func sortContract(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	sortNames, heapNames := []string{"Len", "Less", "Swap"}, []string{"Push", "Pop"}
	if recv == nil || !slices.Contains(sortNames, fn.Name()) && !slices.Contains(heapNames, fn.Name()) {
		return false // asked of every method: the method set only for these
	}
	mset := types.NewMethodSet(recv.Type())
	has := func(names []string) bool {
		for _, name := range names {
			sel := mset.Lookup(nil, name)
			if sel == nil || !contractShape(name, sel.Type()) {
				return false
			}
		}
		return true
	}
	switch {
	case slices.Contains(sortNames, fn.Name()):
		return has(sortNames)
	case slices.Contains(heapNames, fn.Name()):
		return has(sortNames) && has(heapNames)
	}
	return false
}

// registration reports whether fn only registers callbacks on its
// receiver: every store it makes puts a function it is handed (or a
// literal wrapping one) into a field of the receiver itself, and it does
// nothing else but read fields, compare and panic: no call, no lock, no
// channel operation (nbio's Engine.OnOpen). Its library's users call it
// while they set the object up, before the events it handles can happen,
// and the library, by not locking there, says so; it is not an entry
// point that runs at the same time as the others. A registration that
// takes the lock (go-cache's OnEvicted) says the opposite, and stays
// one; so does a store through a pointer the receiver holds, which sets
// up whatever else shares that object too (nbio's Conn.OnMessage writing
// the handlers its Upgrader shares with every connection).
func registration(fn *ssa.Function) bool {
	if len(fn.Params) < 2 {
		return false
	}
	recv, handed := fn.Params[0], map[ssa.Value]bool{}
	for _, p := range fn.Params[1:] {
		if _, isFunc := p.Type().Underlying().(*types.Signature); isFunc {
			handed[p] = true
		}
	}
	// A parameter a literal captures lives in a cell: held is what each
	// cell holds, and param what a value is, seen through its cell.
	held := map[ssa.Value]ssa.Value{}
	param := func(v ssa.Value) ssa.Value {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && held[load.X] != nil {
			return held[load.X]
		}
		return v
	}
	wraps := func(v ssa.Value) bool {
		if c, ok := v.(*ssa.MakeClosure); ok {
			return slices.ContainsFunc(c.Bindings, func(b ssa.Value) bool { return handed[held[b]] })
		}
		return handed[param(v)]
	}
	stores := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				switch addr := instr.Addr.(type) {
				case *ssa.Alloc:
					p, ok := instr.Val.(*ssa.Parameter)
					if !ok {
						return false
					}
					held[addr] = p
				case *ssa.FieldAddr:
					if !wraps(instr.Val) || !ownField(addr, recv, param) {
						return false
					}
					stores++
				default:
					return false
				}
			case *ssa.UnOp:
				if instr.Op != token.MUL {
					return false
				}
			case *ssa.Alloc, *ssa.FieldAddr, *ssa.Field, *ssa.MakeClosure, *ssa.BinOp, *ssa.If, *ssa.Jump,
				*ssa.Return, *ssa.Panic, *ssa.MakeInterface, *ssa.DebugRef, *ssa.ChangeType:
			default:
				return false
			}
		}
	}
	return len(handed) > 0 && stores > 0
}

// ownField reports whether addr is a field of recv's object itself (or
// of a struct embedded in it by value), not of one it points to; param
// sees a value through the cell a literal captures it in.
func ownField(addr *ssa.FieldAddr, recv ssa.Value, param func(ssa.Value) ssa.Value) bool {
	for {
		x, ok := addr.X.(*ssa.FieldAddr)
		if !ok {
			return param(addr.X) == recv
		}
		addr = x
	}
}

// contractShape reports whether t, a method's signature, is what
// sort.Interface or heap.Interface asks of the method of that name.
func contractShape(name string, t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok || sig.Variadic() {
		return false
	}
	integer, boolean, anything := types.Typ[types.Int], types.Typ[types.Bool], types.NewInterfaceType(nil, nil)
	want := map[string][2][]types.Type{
		"Len":  {nil, {integer}},
		"Less": {{integer, integer}, {boolean}},
		"Swap": {{integer, integer}, nil},
		"Push": {{anything}, nil},
		"Pop":  {nil, {anything}},
	}[name]
	return sameTypes(sig.Params(), want[0]) && sameTypes(sig.Results(), want[1])
}

// sameTypes reports whether the tuple's types are ts.
func sameTypes(tuple *types.Tuple, ts []types.Type) bool {
	if tuple.Len() != len(ts) {
		return false
	}
	for i, t := range ts {
		if !types.Identical(tuple.At(i).Type(), t) {
			return false
		}
	}
	return true
}
