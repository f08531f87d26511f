package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Streams for one goroutine at a time.
//
// A library's entry points are the exported methods of types that take
// their own locks (libraryRoots, RacerD's rule). A stream, a type with
// io.Reader's Read or io.Writer's Write, is for one goroutine at a time
// unless it says otherwise, as Go's own streams are (compress/gzip's
// Reader; net.Conn and os.File say they may be used at once). When its
// Read or Write writes its own fields holding no lock at all, the
// stream's lock is not what keeps its callers apart: it serves something
// else, such as stopping a read-ahead goroutine of the stream's own
// (klauspost/pgzip's Reader) or collecting its workers' errors (its
// Writer). Its methods are then not assumed to run at once. A stream
// documented as safe for concurrent use keeps the assumption, and its
// fields are still reported where the program's own goroutines race on
// them.

// streams is the receiver types, among fns, of a Read or Write method
// with io's signature that writes a field of its receiver holding no
// lock, less those documented as safe for concurrent use.
func (a *run) streams(fns []*ssa.Function) map[string]bool {
	// The roots are found before the walk works out what calls do to
	// locks, on memos of their own: in a cycle of calls the function
	// asked first sees the others do nothing, so asking here first would
	// change what the walk finds.
	effects, locks := a.effects, a.locks
	a.effects, a.locks = map[effectKey]lockEffect{}, map[*ssa.Function]*bodyLocks{}
	defer func() { a.effects, a.locks = effects, locks }()
	out := map[string]bool{}
	for _, fn := range fns {
		if t := recvName(fn); t != "" && ioMethod(fn) && !a.p.concurrentRecv(fn) && a.writesRecvUnlocked(fn) {
			out[t] = true
		}
	}
	return out
}

// ioMethod reports whether fn is a Read or Write method with the
// signature of io.Reader's or io.Writer's.
func ioMethod(fn *ssa.Function) bool {
	if fn.Name() != "Read" && fn.Name() != "Write" {
		return false
	}
	sig := fn.Signature
	if sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	p, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(p.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// writesRecvUnlocked reports whether fn's own body stores into a field
// of its receiver (or an element of an array field) where it holds no
// lock.
func (a *run) writesRecvUnlocked(fn *ssa.Function) bool {
	if len(fn.Params) == 0 || fn.Blocks == nil {
		return false
	}
	recv := fn.Params[0]
	bl := a.bodyLocksOf(fn)

	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if ok && fieldOf(st.Addr, recv) && len(bl.held(instr, nil)) == 0 {
				return true
			}
		}
	}
	return false
}

// recvValue reports whether v is the receiver recv, or recv loaded from
// the variable a closure captures it in (cellValue).
func recvValue(v ssa.Value, recv *ssa.Parameter) bool {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = cellValue(load.X)
	}
	return v == recv
}

// fieldOf reports whether addr is the address of a field of the struct
// recv points to, or of an element of an array field of it.
func fieldOf(addr ssa.Value, recv *ssa.Parameter) bool {
	for {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			if recvValue(x.X, recv) {
				return true
			}
			addr = x.X
		case *ssa.IndexAddr:
			if _, ok := x.X.Type().Underlying().(*types.Pointer); !ok {
				return false // a slice's element: not the receiver's own memory
			}
			addr = x.X
		default:
			return false
		}
	}
}
