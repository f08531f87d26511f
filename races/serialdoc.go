package races

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/guardvet/guardvet/internal/typedoc"
)

// Types documented as not safe for concurrent use.
//
// A library's entry points are the exported methods of types that take
// their own locks (RacerD's rule: the lock says the type is used from
// many goroutines at once). A type whose documentation says it is not
// safe for concurrent use says the opposite, in the words Go's own
// documentation uses for the contract ("A Reader is not safe for
// concurrent use"); its lock serves something else, such as handing
// results back from a goroutine of its own (pgconn's PgConn). Its
// methods are then not assumed to run at once, as RacerD leaves a
// @NotThreadSafe class alone. Its fields are still reported where the
// program's own goroutines race on them.

// typeDocs is, of the named types of the packages loaded, those whose
// doc comment says they are not safe for concurrent use
// (typedoc.SerialType) and those whose doc comment says they are
// (typedoc.ConcurrentType).
func typeDocs(pkgs []*packages.Package) (serial, concurrent map[*types.TypeName]bool) {
	serial, concurrent = map[*types.TypeName]bool{}, map[*types.TypeName]bool{}
	for _, pkg := range pkgs {
		if pkg.TypesInfo == nil {
			continue
		}
		typedoc.Each(pkg.Syntax, func(ts *ast.TypeSpec, doc string) {
			tn, ok := pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
			switch {
			case !ok:
			case typedoc.SerialType(ts.Name.Name, doc):
				serial[tn] = true
			case typedoc.ConcurrentType(ts.Name.Name, doc):
				concurrent[tn] = true
			}
		})
	}
	return serial, concurrent
}

// serialRecv reports whether fn is a method of a type documented as not
// safe for concurrent use.
func (p *program) serialRecv(fn *ssa.Function) bool {
	tn := recvTypeName(fn)
	return tn != nil && p.serial[tn]
}

// concurrentRecv reports whether fn is a method of a type documented as
// safe for concurrent use.
func (p *program) concurrentRecv(fn *ssa.Function) bool {
	tn := recvTypeName(fn)
	return tn != nil && p.concurrent[tn]
}

// recvTypeName is the declaration of fn's receiver's named type, nil for
// a function.
func recvTypeName(fn *ssa.Function) *types.TypeName {
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	if named, ok := types.Unalias(deref(recv.Type())).(*types.Named); ok {
		return named.Origin().Obj()
	}
	return nil
}
