package guardinfer

import (
	"go/ast"
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

// exposure walks types: the package's types found where callers outside
// it can reach them (api), embedded types, and the interfaces met.
type exposure struct {
	pkg    *types.Package
	out    map[*types.Named]bool
	seen   map[types.Type]bool
	ifaces []*types.Interface
}

// exposedTypes returns the package's named types that code outside it can
// get hold of, or whose methods can be called in a way the call index
// does not see.
func (r *inference) exposedTypes() map[*types.Named]bool {
	x := &exposure{pkg: r.pass.Pkg, out: map[*types.Named]bool{}, seen: map[types.Type]bool{}}
	// What the package exports: every type of the package it reaches is
	// exposed.
	scope := r.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if obj := scope.Lookup(name); obj.Exported() {
			x.walk(obj.Type(), true)
		}
	}
	// Every type the package's code names: embeddings, and interfaces
	// (a value converted to one meets it as the type of a variable, a
	// parameter, a result or a field, declared here or imported).
	x.seen = map[types.Type]bool{}
	for _, objs := range []map[*ast.Ident]types.Object{r.pass.TypesInfo.Defs, r.pass.TypesInfo.Uses} {
		for _, obj := range objs {
			if obj != nil {
				x.walk(obj.Type(), false)
			}
		}
	}
	for _, name := range scope.Names() {
		n, ok := types.Unalias(scope.Lookup(name).Type()).(*types.Named)
		if !ok || x.out[n] || n.Obj().Pkg() != r.pass.Pkg {
			continue
		}
		if n.TypeParams().Len() > 0 {
			x.out[n] = true // Implements is unspecified for generic types: assume the worst
			continue
		}
		ptr := types.NewPointer(n)
		for _, it := range x.ifaces {
			if types.Implements(ptr, it) {
				x.out[n] = true
				break
			}
		}
	}
	return x.out
}

// walk visits t; with api, t is reachable from outside the package.
func (x *exposure) walk(t types.Type, api bool) {
	if t == nil || x.seen[t] {
		return
	}
	x.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		x.walk(types.Unalias(t), api)
	case *types.Named:
		x.named(t, api)
	case *types.Pointer:
		x.walk(t.Elem(), api)
	case *types.Slice:
		x.walk(t.Elem(), api)
	case *types.Array:
		x.walk(t.Elem(), api)
	case *types.Map:
		x.walk(t.Key(), api)
		x.walk(t.Elem(), api)
	case *types.Chan:
		x.walk(t.Elem(), api)
	case *types.Signature:
		x.walk(t.Params(), api)
		x.walk(t.Results(), api)
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			x.walk(t.At(i).Type(), api)
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if f.Embedded() {
				if n, ok := types.Unalias(astq.Deref(f.Type())).(*types.Named); ok && n.Obj().Pkg() == x.pkg {
					x.out[n.Origin()] = true // its methods are promoted
				}
			}
			if !api || f.Exported() || f.Embedded() {
				x.walk(f.Type(), api)
			}
		}
	case *types.Interface:
		if t.NumMethods() > 0 {
			x.ifaces = append(x.ifaces, t)
		}
		for i := 0; i < t.NumMethods(); i++ {
			x.walk(t.Method(i).Type(), api)
		}
	}
}

// named visits a named type: one of another package matters only as an
// interface (it cannot mention this package's types: no import cycles).
func (x *exposure) named(t *types.Named, api bool) {
	if t.Obj().Pkg() != x.pkg {
		if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			x.ifaces = append(x.ifaces, it)
		}
		return
	}
	if api {
		x.out[t.Origin()] = true
	}
	x.walk(t.Underlying(), api)
	for i := 0; i < t.NumMethods(); i++ {
		if m := t.Method(i); m.Exported() {
			x.walk(m.Type(), api && t.Obj().Exported())
		}
	}
}
