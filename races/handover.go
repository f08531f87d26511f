package races

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Channels that hand objects over.
//
// A buffered channel kept in a struct field is often a pool: a zstd
// Encoder keeps its block encoders in e.encoders, and each worker takes
// one (enc := <-e.encoders), uses it, and sends it back. When every send
// on the channel puts in an object its sender has not shared and does
// not touch again, each object is held by one goroutine at a time: the
// one that last received it, until it sends it on, and the send happens
// before the receive that takes it. What such a receive returns is then
// the receiver's alone, as what sync.Pool's Get returns is (poolGet).
//
// A field qualifies when the program only ever stores into it nil or a
// new channel made for such fields alone, never takes its address, and
// only sends on, receives from, closes, measures or compares what it
// loads from it: nothing else can put an object in. Each send must give its object up: the object is
// new (an allocation, a call's fresh or handed-over result, what a
// receive from a qualifying field handed over), is not published before
// the send, and no use of it can run after the send. A send from a
// deferred function literal (defer func() { ch <- enc }()) runs after
// everything else its function does, so there only publication counts.

// handOverRecv reports whether v is a receive (<-ch, not v, ok :=) from
// a channel held in a field whose channels hand objects over.
func (a *run) handOverRecv(v ssa.Value) bool {
	x, ok := v.(*ssa.UnOp)
	if !ok || x.Op != token.ARROW || x.CommaOk {
		return false
	}
	k := chanField(x.X)
	return k != "" && a.handOverChans()[k]
}

// chanField is the field a channel value was loaded from, "" if it was
// not loaded from a field.
func chanField(ch ssa.Value) string {
	ld, ok := ch.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return ""
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return ""
	}
	return fieldKey(fa.X.Type(), fa.Field)
}

// chanSend is a send on a channel loaded from a field: a send
// statement, or a select's send case.
type chanSend struct {
	key   string
	instr ssa.Instruction
	val   ssa.Value
}

// handOverChans works out, once, the channel fields whose receives hand
// objects over. A send's object may come from a receive on another such
// field (or the same one), so it starts from every candidate and drops
// those with a send that does not give its object up, until none drops.
func (a *run) handOverChans() map[string]bool {
	if a.handOver != nil {
		return a.handOver
	}
	bad := map[string]bool{}
	cand := map[string]bool{}
	var sends []chanSend
	for _, fn := range a.p.ownFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if f, ok := instr.(*ssa.Field); ok {
					// A channel read out of a copy of the struct: its
					// uses are not followed.
					bad[fieldKey(types.NewPointer(f.X.Type()), f.Field)] = true
					continue
				}
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if _, isChan := deref(fa.Type()).Underlying().(*types.Chan); !isChan {
					continue
				}
				k := fieldKey(fa.X.Type(), fa.Field)
				if k == "" {
					continue
				}
				cand[k] = true
				if !chanFieldUses(fa, k, &sends) {
					bad[k] = true
				}
			}
		}
	}
	a.handOver = map[string]bool{}
	for k := range cand {
		if !bad[k] {
			a.handOver[k] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, s := range sends {
			if a.handOver[s.key] && !a.givesUp(s) {
				delete(a.handOver, s.key)
				changed = true
			}
		}
		// What was worked out above took the dropped fields for
		// hand-over channels.
		a.forgetPublication()
	}
	return a.handOver
}

// forgetPublication drops what the publication and escape checks have
// memoised: they consult handOver, which is still being worked out.
func (a *run) forgetPublication() {
	a.escaping = map[*ssa.Parameter]paramEscape{}
	a.pubMemo = map[pubKey]bool{}
	a.cellMemo = map[pubKey]bool{}
	a.handMemo = map[handKey]bool{}
}

// chanFieldUses reports whether fa, the address of a channel field, is
// only stored a new channel or nil into and loaded, and what is loaded
// only sent on, received from, closed, measured or compared; it adds the
// sends to sends.
func chanFieldUses(fa *ssa.FieldAddr, k string, sends *[]chanSend) bool {
	for _, ref := range *fa.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if !isNil(x.Val) && !madeFor(x.Val, k) {
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || !chanUses(x, k, sends) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// madeFor reports whether v is a channel made only to be stored into
// fields k names: ch := make(chan T); e.pool = ch; go fill(ch) would let
// fill send what it likes.
func madeFor(v ssa.Value, k string) bool {
	mk, ok := v.(*ssa.MakeChan)
	if !ok {
		return false
	}
	for _, ref := range *mk.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			fa, ok := x.Addr.(*ssa.FieldAddr)
			if !ok || x.Val != mk || fieldKey(fa.X.Type(), fa.Field) != k {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// chanUses is chanFieldUses for ch, a channel loaded from the field.
func chanUses(ch *ssa.UnOp, k string, sends *[]chanSend) bool {
	for _, ref := range *ch.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case *ssa.Send:
			if x.Chan != ch {
				return false
			}
			*sends = append(*sends, chanSend{k, x, x.X})
		case *ssa.UnOp:
			if x.Op != token.ARROW {
				return false
			}
		case *ssa.Select:
			for _, st := range x.States {
				if st.Chan == ch && st.Dir == types.SendOnly {
					*sends = append(*sends, chanSend{k, x, st.Send})
				}
			}
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok || (b.Name() != "len" && b.Name() != "cap" && b.Name() != "close") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// givesUp reports whether s puts in an object its sender made or was
// handed, has not published, and does not touch after the send.
func (a *run) givesUp(s chanSend) bool {
	v, chain := s.val, map[ssa.Value]bool{s.val: true}
	for w := converted(v); w != nil; w = converted(v) {
		v, chain[w] = w, true
	}
	if s.instr.Parent().Parent() != nil {
		// In a function literal: a captured variable's object.
		if _, ok := v.(*ssa.FreeVar); ok {
			return a.deferredGiveUp(v, chain, s)
		}
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if _, ok := ld.X.(*ssa.FreeVar); ok {
				return a.deferredGiveUp(v, chain, s)
			}
		}
	}
	if pointerFree(s.val.Type()) {
		return true // a value with no pointer in it hands nothing over
	}
	def, ok := v.(ssa.Instruction)
	if !ok || !a.handedObject(v, 0) || a.published(v, s.instr, false, toAnyone) {
		return false
	}
	for w := range chain {
		for _, ref := range *w.Referrers() {
			if rv, isValue := ref.(ssa.Value); isValue && chain[rv] || ref == s.instr {
				continue
			}
			if _, dbg := ref.(*ssa.DebugRef); dbg {
				continue
			}
			if reachesSame(s.instr, ref, def) {
				return false // used again after it was sent
			}
		}
	}
	return true
}

// handedObject reports whether v is an object its function made or was
// handed for itself: an allocation, a call's fresh or handed-over
// result, a receive from a channel field that hands objects over, nil,
// or one of those by the way taken.
func (a *run) handedObject(v ssa.Value, depth int) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return capturedCell(x) == nil
	case *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		return true
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Call, *ssa.Extract:
		return a.freshValue(v) || a.handedOver(v, toAnyone)
	case *ssa.UnOp:
		return x.Op == token.ARROW && !x.CommaOk && a.handOver[chanField(x.X)]
	case *ssa.Phi:
		if depth > 4 {
			return false
		}
		for _, e := range x.Edges {
			if !a.handedObject(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// deferredGiveUp is givesUp for a send, from a function literal, of v:
// a variable the literal captures (fv, or a load of fv's cell). The
// literal must only ever be deferred (defer func() { ch <- enc }()), so
// it runs once everything else its function does has run, and must not
// touch the object after the send; the object must be one that function
// was handed, and that it publishes nowhere else.
func (a *run) deferredGiveUp(v ssa.Value, chain map[ssa.Value]bool, s chanSend) bool {
	fv, _ := v.(*ssa.FreeVar)
	cell := false
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		fv, _ = ld.X.(*ssa.FreeVar)
		cell = true
	}
	if fv == nil || s.instr.Parent() != fv.Parent() {
		return false
	}
	inner := []ssa.Value{fv}
	if cell {
		for _, ref := range *fv.Referrers() {
			if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL {
				inner = append(inner, ld)
			}
		}
	}
	for _, u := range inner {
		for _, ref := range *u.Referrers() {
			if rv, isValue := ref.(ssa.Value); isValue && (chain[rv] || slices.Contains(inner, rv)) || ref == s.instr {
				continue
			}
			if reaches(s.instr, ref) {
				return false // touched after it was sent
			}
		}
	}
	obj, outer := a.capturedObject(binding(fv), cell)
	if obj == nil || !a.handedObject(obj, 0) {
		return false
	}
	for _, u := range append(outer, obj) {
		for _, ref := range *u.Referrers() {
			switch x := ref.(type) {
			case *ssa.DebugRef, *ssa.MakeClosure:
			case *ssa.Store:
				if _, isCell := x.Addr.(*ssa.Alloc); !isCell || x.Val != u {
					return false
				}
			default:
				if a.publishes(u, ref) {
					return false
				}
			}
		}
	}
	return true
}

// capturedObject is what b, a function literal's binding, holds: b
// itself, or (cell) the one value stored into b, a variable's cell, with
// the loads of it; nil unless every function literal capturing b is only
// ever deferred, and a cell is only stored into once and loaded.
func (a *run) capturedObject(b ssa.Value, cell bool) (obj ssa.Value, loads []ssa.Value) {
	if b == nil {
		return nil, nil
	}
	if !cell {
		obj = b
	} else if c, ok := b.(*ssa.Alloc); !ok || capturedCell(c) == nil {
		return nil, nil
	}
	for _, ref := range *b.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !onlyDeferred(x) {
				return nil, nil
			}
		case *ssa.Store:
			if !cell || x.Addr != b || obj != nil {
				if !cell {
					continue // b stored somewhere: publishes() decides
				}
				return nil, nil
			}
			obj = x.Val
		case *ssa.UnOp:
			if cell && x.Op == token.MUL {
				loads = append(loads, x)
			}
		default:
			if cell {
				return nil, nil
			}
		}
	}
	return obj, loads
}

// cellRecv is the receive a load of a captured variable's cell loads:
// the variable is only ever set to one receive from a channel that hands
// objects over (enc := <-e.encoders, captured by the deferred literal
// that sends it back), and the literals capturing it never set it. Nil
// otherwise.
func (a *run) cellRecv(ld *ssa.UnOp) ssa.Value {
	cell, ok := ld.X.(*ssa.Alloc)
	if !ok || ld.Op != token.MUL || capturedCell(cell) == nil {
		return nil
	}
	return storedOnce(cell, a.handOverRecv)
}

// converted is what v converts (to an interface, or to another type
// with the same underlying one), nil if v is no conversion.
func converted(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return x.X
	case *ssa.ChangeType:
		return x.X
	case *ssa.ChangeInterface:
		return x.X
	case *ssa.Convert:
		// A pointer made an unsafe.Pointer, or an unsafe.Pointer made a
		// pointer ((*hdr)(unsafe.Pointer(&buf[0]))): the same memory,
		// seen as another type.
		if isUnsafePointer(x.Type()) || isUnsafePointer(x.X.Type()) {
			return x.X
		}
	}
	return nil
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// recvOf is the receive from a channel that hands objects over that x
// is (<-e.encoders) or loads (a captured variable set to one); nil if
// neither.
func (a *run) recvOf(x *ssa.UnOp) ssa.Value {
	if a.handOverRecv(x) {
		return x
	}
	return a.cellRecv(x)
}
