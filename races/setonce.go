package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Fields set only where their object is made.
//
// A constructor often reaches what it made through the fields it has just
// set: go-redis's NewClient builds c := Client{baseClient: &baseClient{opt:
// opt}} and then writes c.opt.PushNotificationProcessor. The write is on
// opt, a clone only the constructor holds, but it is reached by loading
// c.baseClient and then .opt, and a load from a field is whatever any
// code stored there. Where every store to the field in the program is
// into an object the storing function allocated itself (a composite
// literal, a local copy), and the field's address serves nothing but
// those stores and loads, a field of an object a function made holds what
// that function stored into it: once the object exists, no other code
// sets the field. A load from it is then the stored value, whose
// ownership is the question (setStored).

// setOnceFields works out, once, the fields of the program's own code
// that only their object's maker sets (setOnce).
func (a *run) setOnceFields() map[string]bool {
	if a.setOnce != nil {
		return a.setOnce
	}
	seen, bad := map[string]bool{}, map[string]bool{}
	for _, fn := range a.p.ownFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.FieldAddr:
					k := fieldKey(x.X.Type(), x.Field)
					if k == "" {
						continue
					}
					seen[k] = true
					if !onlyStoredLoaded(x) || storesInto(x) && !a.ownNew(x.X) {
						bad[k] = true
					}
				case *ssa.Store:
					// A whole struct stored (*p = T{}, a reset) sets
					// every field of it.
					if _, field := x.Addr.(*ssa.FieldAddr); !field && !a.ownNew(x.Addr) {
						for _, k := range structFields(x.Addr.Type(), 0) {
							bad[k] = true
						}
					}
				}
			}
		}
	}
	a.setOnce = map[string]bool{}
	for k := range seen {
		if !bad[k] {
			a.setOnce[k] = true
		}
	}
	return a.setOnce
}

// onlyStoredLoaded reports whether fa, a field's address, is only stored
// to and loaded from.
func onlyStoredLoaded(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != ssa.Value(fa) {
				return false // the address itself stored somewhere
			}
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// storesInto reports whether some referrer of fa stores into it.
func storesInto(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(fa) {
			return true
		}
	}
	return false
}

// ownNew reports whether v, a pointer, points into (through fields of
// it) an object the function it is in made: its own allocation, or what
// a constructor it called made and handed over.
func (a *run) ownNew(v ssa.Value) bool {
	switch x := objectOf(v).(type) {
	case *ssa.Alloc:
		return true
	case *ssa.Call, *ssa.Extract:
		return a.handedOver(x, toAnyone)
	}
	return false
}

// structFields is the field keys of the struct type t points to, and of
// the structs it holds by value.
func structFields(t types.Type, depth int) []string {
	p, ok := types.Unalias(t).Underlying().(*types.Pointer)
	if !ok || depth > 4 {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	out := make([]string, 0, st.NumFields())
	for i := range st.NumFields() {
		if k := fieldKey(t, i); k != "" {
			out = append(out, k)
		}
		if _, inner := st.Field(i).Type().Underlying().(*types.Struct); inner {
			out = append(out, structFields(types.NewPointer(st.Field(i).Type()), depth+1)...)
		}
	}
	return out
}

// madeIn is the allocation of its own function that v, a pointer, points
// into (through fields of it), nil if it is not one.
func madeIn(v ssa.Value) *ssa.Alloc {
	alloc, _ := objectOf(v).(*ssa.Alloc)
	return alloc
}

// stored is what v holds where it is a field of an object fn made (or
// reached so, at any depth), loaded (*&x.f) or taken from the struct's
// value (x.f of *x): the one value fn stores into that field of that
// object, where only its maker sets the field, and the object; nil
// otherwise.
func (a *run) stored(fn *ssa.Function, v ssa.Value, depth int) (ssa.Value, *ssa.Alloc) {
	if depth > 4 {
		return nil, nil
	}
	var obj *ssa.Alloc
	var f int
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL || !a.setOnceFields()[fieldKey(fa.X.Type(), fa.Field)] {
			return nil, nil
		}
		obj, f = a.madeBy(fn, fa.X, depth), fa.Field
	case *ssa.Field:
		load, ok := x.X.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !a.setOnceFields()[fieldKey(load.X.Type(), x.Field)] {
			return nil, nil
		}
		obj, f = a.madeBy(fn, load.X, depth), x.Field
	}
	if obj == nil {
		return nil, nil
	}
	if w := a.storedInto(fn, obj, f, depth); w != nil {
		return w, obj
	}
	if at, ok := v.(ssa.Instruction); ok {
		return a.lastStoredBefore(fn, obj, f, at, depth), obj
	}
	return nil, nil
}

// lastStoredBefore is, where fn sets field f of obj more than once, the
// value of the store that every way to at passes last: a store to the
// field that comes before at on every path, after every other store of
// the field or copy of the whole struct, and that none of them can
// follow (WithTimeout's clone := *c, then clone.baseClient = a fresh
// one). Nil if there is no such store.
func (a *run) lastStoredBefore(fn *ssa.Function, obj *ssa.Alloc, f int, at ssa.Instruction, depth int) ssa.Value {
	stores := a.storesOf(fn, obj, f, depth)
	var last *ssa.Store
	for _, st := range stores {
		if _, field := st.Addr.(*ssa.FieldAddr); field && dominates(st, at) {
			last = st // the candidate: checked against the rest below
		}
	}
	if last == nil {
		return nil
	}
	for _, st := range stores {
		if st != last && (!dominates(st, last) || reaches(last, st)) {
			return nil
		}
	}
	return last.Val
}

// storesOf is fn's stores that can set field f of obj, its own
// allocation: to the field, or of the whole struct.
func (a *run) storesOf(fn *ssa.Function, obj *ssa.Alloc, f, depth int) []*ssa.Store {
	var out []*ssa.Store
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			switch addr := st.Addr.(type) {
			case *ssa.FieldAddr:
				if addr.Field == f && a.madeBy(fn, addr.X, depth) == obj {
					out = append(out, st)
				}
			case *ssa.Alloc:
				if addr == obj {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// storedInto is the one value fn stores into field f of obj, its own
// allocation: by a store to the field, or by a copy of a struct it filled
// (c := Client{...} builds the literal and copies it into c's cell); nil
// if there is not exactly one.
func (a *run) storedInto(fn *ssa.Function, obj *ssa.Alloc, f, depth int) ssa.Value {
	stores := a.storesOf(fn, obj, f, depth)
	if len(stores) != 1 {
		return nil // set twice: which one a load sees depends on the path
	}
	st := stores[0]
	if _, field := st.Addr.(*ssa.FieldAddr); field {
		return st.Val
	}
	var from *ssa.Alloc
	if copied, ok := st.Val.(*ssa.UnOp); ok && copied.Op == token.MUL {
		from, _ = copied.X.(*ssa.Alloc)
	}
	if from == nil || from == obj || depth > 4 {
		return nil // a struct from elsewhere
	}
	return a.storedInto(fn, from, f, depth+1)
}

// madeBy is the allocation of fn that v points into, directly or through
// fields of it that only their object's maker sets (stored).
func (a *run) madeBy(fn *ssa.Function, v ssa.Value, depth int) *ssa.Alloc {
	if alloc := madeIn(v); alloc != nil {
		if alloc.Parent() == fn {
			return alloc
		}
		return nil
	}
	if w, _ := a.stored(fn, objectOf(v), depth+1); w != nil {
		return a.madeBy(fn, w, depth+1)
	}
	return nil
}
