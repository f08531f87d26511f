package races

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// kind of a sync/atomic operation.
type atomicKind int

const (
	notAtomic   atomicKind = iota
	atomicLoad             // Load
	atomicStore            // Store, Add, And, Or
	atomicSwap             // Swap, CompareAndSwap: reads and writes
)

// atomicOp recognises call as a sync/atomic operation on a field or
// package variable: atomic.StoreInt32(&s.n, 1), s.started.Load() on an
// atomic.Bool field. loc is the location operated on, as accesses name
// them.
func atomicOp(call *ssa.Call) (loc string, kind atomicKind) {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || len(call.Common().Args) == 0 {
		return "", notAtomic
	}
	name := callee.Name()
	switch {
	case strings.HasPrefix(name, "Load"):
		kind = atomicLoad
	case strings.HasPrefix(name, "Store"), strings.HasPrefix(name, "Add"), strings.HasPrefix(name, "And"), strings.HasPrefix(name, "Or"):
		kind = atomicStore
	case strings.HasPrefix(name, "Swap"), strings.HasPrefix(name, "CompareAndSwap"):
		kind = atomicSwap
	default:
		return "", notAtomic
	}
	if loc := heldAt(call.Common().Args[0]); loc != "" {
		return loc, kind
	}
	return "", notAtomic
}

// heldAt names where the value addr points to is held, as accesses name
// locations: a field (T.f) or a package variable (pkg.v); "" for anything
// else. The Once, WaitGroup or atomic a call works on is known by it.
func heldAt(addr ssa.Value) string {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		return fieldAddrKey(x)
	case *ssa.Global:
		if x.Pkg != nil {
			return x.Pkg.Pkg.Path() + "." + x.Name()
		}
	}
	return ""
}

// atomicAccess is call's access when it is a sync/atomic function's on
// a plain field or package variable (atomic.AddUint64(&c.stats.Writes,
// 1)): it races with the plain accesses of the same location, not with
// other atomic ones. (Methods of sync/atomic's types are left out: their
// fields have no plain accesses.)
func (a *run) atomicAccess(call *ssa.Call) (access, bool) {
	loc, kind := atomicOp(call)
	if kind == notAtomic || call.Common().Signature().Recv() != nil {
		return access{}, false
	}
	addr := call.Common().Args[0]
	if isSyncType(addr.Type()) {
		return access{}, false
	}
	return access{loc: loc, base: baseOf(addr), write: kind != atomicLoad, atomic: true, instr: call, pos: call.Pos()}, true
}

// wholeStruct is, for a load or store of a whole struct held at addr,
// the accesses it makes of those of the struct's fields that are also
// accessed atomically somewhere: copying c.stats reads c.stats.Writes,
// which another goroutine adds to with atomic.AddUint64.
func (a *run) wholeStruct(addr ssa.Value, write bool, instr ssa.Instruction, pos token.Pos) []access {
	fields := a.atomicFields()
	if len(fields) == 0 {
		return nil
	}
	var out []access
	st, ok := deref(addr.Type()).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if loc := fieldKey(addr.Type(), i); fields[loc] {
			out = append(out, access{loc: loc, base: addr, write: write, instr: instr, pos: pos})
		}
	}
	return out
}

// atomicFields is the locations some sync/atomic function is applied to
// in the program, computed once.
func (a *run) atomicFields() map[string]bool {
	if a.atomics != nil {
		return a.atomics
	}
	a.atomics = map[string]bool{}
	for _, fn := range a.p.ownFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok {
					if acc, ok := a.atomicAccess(call); ok {
						a.atomics[acc.loc] = true
					}
				}
			}
		}
	}
	return a.atomics
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
