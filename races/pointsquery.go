package races

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// What the solved points-to analysis (points.go) says of a value: the
// queries the rest of the mode asks it.

// objects is what v can point into; empty when unknown.
func (p *points) objects(v ssa.Value) map[int]bool {
	if v == nil {
		return nil
	}
	if len(p.extra[v]) > 0 {
		return p.unionOf(v)
	}
	n, ok := p.nodes[v]
	if !ok || len(p.sets[n]) == 0 {
		if fa, isField := v.(*ssa.FieldAddr); isField {
			if base := p.objects(fa.X); len(base) > 0 {
				if fs, ok := p.fieldsOf(base, fa.Field); ok {
					return fs
				}
			}
		}
		return p.ofType(v.Type())
	}
	return p.sets[n]
}

// ofType is, for a pointer to an unexported type of the program's own
// packages, every object of that type: only the program's own code can
// make one, so a pointer the analysis lost track of (it came through a
// dependency, an interface a caller outside implements) still points
// into one of them. Empty (unknown) for any other type.
func (p *points) ofType(t types.Type) map[int]bool {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}

	return p.byType[p.ownType(ptr.Elem())]
}

// ownType is a key for t if it is an unexported named struct type of the
// program's own packages, "" otherwise.
func (p *points) ownType(t types.Type) string {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Exported() || !p.ownPkgs[named.Obj().Pkg()] {
		return ""
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return ""
	}
	return types.TypeString(named, nil)
}

// fieldsOf is the objects of field f (-1: the elements) of the objects
// in objs, as the analysis derived them; ok is false if it derived none
// for one of them (or one is unknown).
func (p *points) fieldsOf(objs map[int]bool, f int) (map[int]bool, bool) {
	out := make(map[int]bool, len(objs))
	for obj := range objs {
		if obj == unknownObj {
			return nil, false
		}
		if p.depth[obj] >= maxDepth {
			out[obj] = true // it stands for its own fields (derivedOf)
			continue
		}
		d, ok := p.derived[[2]int{obj, f}]
		if !ok {
			return nil, false
		}
		out[d] = true
	}
	return out, true
}

// contents is what is stored in the objects of objs (fields' objects,
// as fieldsOf gives them); ok is false if that is unknown, or nothing is
// stored in one of them.
func (p *points) contents(objs map[int]bool) (map[int]bool, bool) {
	out := map[int]bool{}
	for obj := range objs {
		n, ok := p.content[obj]
		if obj == unknownObj || !ok || len(p.sets[n]) == 0 || p.sets[n][unknownObj] {
			return nil, false
		}
		for o := range p.sets[n] {
			out[o] = true
		}
	}
	if len(out) == 0 || len(out) > maxObjects {
		return nil, false
	}
	return out, true
}

// typed is the objects of set a value of type t can point into
// (canHold): an interface's receiver handed to the method promoted from
// a field it embeds is not the object the interface holds.
func (p *points) typed(set map[int]bool, t types.Type) map[int]bool {
	for o := range set {
		if !p.canHold(t, o) {
			out := map[int]bool{}
			for o := range set {
				if p.canHold(t, o) {
					out[o] = true
				}
			}
			return out
		}
	}
	return set
}

// sortedObjs is the objects of set in increasing order: the solver
// takes them in an order of its own, not the map's, so that which
// objects a set holds when it grows past maxObjects, and the numbers
// derived objects get, are the same on every run.
func sortedObjs(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for o := range set {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// mayAlias reports whether x and y can be the same object: both known
// and sharing an allocation, or either unknown.
func mayAlias(x, y map[int]bool) bool {
	if len(x) == 0 || len(y) == 0 || x[unknownObj] || y[unknownObj] {
		return true
	}
	return intersects(x, y)
}

// tracked reports whether the analysis knows what v points into from the
// program's own flows (not from the fallback for pointers it lost, which
// came through a dependency): its set is non-empty, or v is a field of a
// value it tracks.
func (p *points) tracked(v ssa.Value) bool {
	for _, n := range p.nodesOf(v) {
		if len(p.sets[n]) > 0 {
			return true
		}
	}
	if fa, ok := v.(*ssa.FieldAddr); ok {
		if _, ok := p.nodes[fa]; !ok {
			return p.tracked(fa.X)
		}
	}
	return false
}

// holdsPointers reports whether a value of type t can hold a pointer:
// anything but a basic type other than unsafe.Pointer (a string holds
// none the analysis follows).
func holdsPointers(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return !ok || b.Kind() == types.UnsafePointer
}

// reachesPointers reports whether a value of type t can hold a pointer
// anywhere within it: in its fields, elements, or what it points to (a
// []byte cannot keep a pointer it is handed; a []any can).
func reachesPointers(t types.Type) bool {
	return anyPart(t, func(t types.Type) (bool, bool) {
		switch u := t.(type) {
		case *types.Basic:
			return u.Kind() == types.UnsafePointer, true
		case *types.Interface, *types.Signature, *types.TypeParam:
			return true, true // what it holds or captures may be a pointer
		}
		return false, false
	})
}

// anyPart reports whether t, or a type a value of it holds (through
// names, pointers, elements, map keys and values, and struct fields), is
// one leaf picks: leaf answers for a type it decides (decided), and the
// walk goes on into the parts of the others. A type with no parts that
// leaf does not decide is not picked.
func anyPart(t types.Type, leaf func(types.Type) (picked, decided bool)) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if picked, decided := leaf(t); decided {
			return picked
		}
		switch u := t.(type) {
		case *types.Named:
			return walk(u.Underlying())
		case *types.Alias:
			return walk(types.Unalias(u))
		case *types.Pointer:
			return walk(u.Elem())
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Chan:
			return walk(u.Elem())
		case *types.Map:
			return walk(u.Key()) || walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if walk(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// unionOf is what v, a value of a factory copied for its calls, points
// into in any copy or in the shared body; empty when unknown in one.
func (p *points) unionOf(v ssa.Value) map[int]bool {
	if u, ok := p.unions[v]; ok {
		return u
	}
	u := p.union(v)
	p.unions[v] = u
	return u
}

// union works out unionOf, once a value: the walk asks it of the same
// values at every call it passes.
func (p *points) union(v ssa.Value) map[int]bool {
	out := map[int]bool{}
	for _, n := range p.nodesOf(v) {
		for o := range p.sets[n] {
			out[o] = true
		}
	}
	if out[unknownObj] {
		return map[int]bool{unknownObj: true}
	}
	if len(out) == 0 {
		return p.ofType(v.Type())
	}
	return out
}

// holders is, for each object, the objects that hold it: parts, the
// object of which it is a field or the elements; holds, the objects in
// which a pointer to it is stored (a field's object, an element's, a
// closure capturing it).
func (p *points) holders() (parts, holds map[int][]int) {
	parts, holds = map[int][]int{}, map[int][]int{}
	for k, d := range p.derived {
		if d != k[0] {
			parts[d] = append(parts[d], k[0])
		}
	}
	for obj, n := range p.content {
		for o := range p.sets[n] {
			if o != obj {
				holds[o] = append(holds[o], obj)
			}
		}
	}
	for obj, ns := range p.binds {
		for _, n := range ns {
			for o := range p.sets[n] {
				holds[o] = append(holds[o], obj)
			}
		}
	}
	return parts, holds
}
