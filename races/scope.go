package races

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// pointsScope is the functions of own that the program's roots can run:
// what the top roots enter (for a library, its whole API: a user calls
// its constructors too), the packages' init functions, and, from
// there, every callee the call graph gives, every function used as a
// value (a handler given to net/http, a function given to sort.Slice)
// and every method of a type put into an interface (what the standard
// library may call on it: String, ServeHTTP, Less). The points-to
// analysis is built on these alone, in their order in own, so that
// code no root runs (a fuzzing helper that unmarshals a packet and
// marshals it again, pion/sctp's TryMarshalUnmarshal) does not merge
// the objects the program keeps apart (fixture deadhelper).
func (a *run) pointsScope(own []*ssa.Function) []*ssa.Function {
	isOwn := make(map[*ssa.Function]bool, len(own))
	for _, fn := range own {
		isOwn[fn] = true
	}
	seen := map[*ssa.Function]bool{}
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && isOwn[fn] && !seen[fn] {
			seen[fn] = true
			work = append(work, fn)
		}
	}
	addMethods := func(t types.Type) {
		ts := []types.Type{t}
		if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
			ts = append(ts, types.NewPointer(t))
		}
		for _, t := range ts {
			mset := a.p.prog.MethodSets.MethodSet(t)
			for i := range mset.Len() {
				add(a.p.prog.MethodValue(mset.At(i)))
			}
		}
	}
	for _, r := range a.topRoots() {
		for _, fn := range r.fns {
			add(fn)
		}
	}
	if a.library {
		// A library's user may call any of its API, constructors
		// first, though only some of it is taken to run at once.
		for _, pkg := range a.p.pkgs {
			for _, fn := range members(pkg) {
				if fn.Object() != nil && fn.Object().Exported() && (fn.Signature.Recv() == nil || exportedAPI(fn)) {
					add(fn)
				}
			}
		}
	}
	for _, pkg := range a.p.pkgs {
		add(pkg.Func("init"))
	}
	var ops []*ssa.Value
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if site, ok := instr.(ssa.CallInstruction); ok {
					for _, callee := range a.p.callees(fn, site) {
						add(callee)
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					addMethods(mi.X.Type())
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok {
						add(f)
					}
				}
			}
		}
	}
	out := make([]*ssa.Function, 0, len(seen))
	for _, fn := range own {
		if seen[fn] {
			out = append(out, fn)
		}
	}
	return out
}
