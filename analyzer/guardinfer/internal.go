package guardinfer

import (
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// Which types only the package can reach. An exported method of an
// unexported type is still called by the package alone when no value of
// the type leaves it: nothing the package exports mentions the type (an
// exported function, variable, or an exported field or method of an
// exported type), no struct embeds it (which would promote its methods),
// and it implements no interface the package's code uses (a call through
// an interface is not a call the index sees). Such a method's callers are
// all in view, as an unexported method's are (quic-go's
// receivedPacketQueue.Init, called only from the connection's set-up).

// internalType reports whether t, a type of the package, never leaves it.
func (r *inference) internalType(t *types.Named) bool {
	if t.Obj().Exported() || t.Obj().Pkg() != r.pass.Pkg {
		return false
	}
	if r.exposed == nil {
		r.exposed = r.exposedTypes()
	}
	return !r.exposed[t]
}

// exposedTypes returns the package's named types that code outside it can
// get hold of, or whose methods can be called in a way the call index
// does not see.
func (r *inference) exposedTypes() map[*types.Named]bool {
	out := map[*types.Named]bool{}
	seen := map[types.Type]bool{}
	var ifaces []*types.Interface
	var walk func(t types.Type, api bool)
	walk = func(t types.Type, api bool) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			walk(types.Unalias(t), api)
		case *types.Named:
			if t.Obj().Pkg() != r.pass.Pkg {
				// It cannot mention the package's types (no import
				// cycles); only its interface matters.
				if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
					ifaces = append(ifaces, it)
				}
				return
			}
			if api {
				out[t.Origin()] = true
			}
			walk(t.Underlying(), api)
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() {
					walk(m.Type(), api && t.Obj().Exported())
				}
			}
		case *types.Pointer:
			walk(t.Elem(), api)
		case *types.Slice:
			walk(t.Elem(), api)
		case *types.Array:
			walk(t.Elem(), api)
		case *types.Map:
			walk(t.Key(), api)
			walk(t.Elem(), api)
		case *types.Chan:
			walk(t.Elem(), api)
		case *types.Signature:
			walk(t.Params(), api)
			walk(t.Results(), api)
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				walk(t.At(i).Type(), api)
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				f := t.Field(i)
				if f.Embedded() {
					if n, ok := types.Unalias(astq.Deref(f.Type())).(*types.Named); ok && n.Obj().Pkg() == r.pass.Pkg {
						out[n.Origin()] = true // its methods are promoted
					}
				}
				if !api || f.Exported() || f.Embedded() {
					walk(f.Type(), api)
				}
			}
		case *types.Interface:
			if t.NumMethods() > 0 {
				ifaces = append(ifaces, t)
			}
			for i := 0; i < t.NumMethods(); i++ {
				walk(t.Method(i).Type(), api)
			}
		}
	}
	// What the package exports: every type of the package it reaches is
	// exposed.
	scope := r.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if obj := scope.Lookup(name); obj.Exported() {
			walk(obj.Type(), true)
		}
	}
	// Every type the package's code uses: embeddings, and interfaces.
	seen = map[types.Type]bool{}
	for _, tv := range r.pass.TypesInfo.Types {
		walk(tv.Type, false)
	}
	for _, obj := range r.pass.TypesInfo.Defs {
		if obj != nil {
			walk(obj.Type(), false)
		}
	}
	for _, name := range scope.Names() {
		n, ok := types.Unalias(scope.Lookup(name).Type()).(*types.Named)
		if !ok || out[n] || n.Obj().Pkg() != r.pass.Pkg {
			continue
		}
		if n.TypeParams().Len() > 0 {
			out[n] = true // Implements is unspecified for generic types: assume the worst
			continue
		}
		ptr := types.NewPointer(n)
		for _, it := range ifaces {
			if types.Implements(ptr, it) {
				out[n] = true
				break
			}
		}
	}
	return out
}
