package lockstate

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// Lock naming: which lock a guard names at one access, and how code in a
// package writes it, for the rules' checks and messages.

// LockFor resolves the lock a guard names for one access (c.mu for an
// access to c.n guarded by mu), and how code in pkg would write it.
func (r *Result) LockFor(pkg *types.Package, acc *Access, ref directives.LockRef) (lockpath.Path, string) {
	p, shown := r.lockFor(pkg, acc, ref)
	return r.Dirs.CanonLock(p), shown
}

func (r *Result) lockFor(pkg *types.Package, acc *Access, ref directives.LockRef) (lockpath.Path, string) {
	if ref.Kind == directives.Global {
		v := r.Dirs.Global(ref)
		if v == nil {
			return lockpath.Path{}, ref.Text
		}
		return lockpath.Path{Root: v, Sel: ref.Sel}, r.GlobalShown(pkg, ref)
	}
	shown := ref.Text
	if sel, ok := acc.Node.(*ast.SelectorExpr); ok {
		shown = types.ExprString(sel.X) + "." + ref.Text
	}
	if !acc.Base.Valid() {
		return lockpath.Path{}, shown
	}
	return lockpath.Path{Root: acc.Base.Root, Sel: acc.Base.Sel + ref.Sel}, shown
}

// GlobalShown prints a package-level lock as code in pkg would write it:
// Mu at home, pkg.Mu elsewhere.
func (r *Result) GlobalShown(pkg *types.Package, ref directives.LockRef) string {
	if ref.PkgPath == pkg.Path() {
		return ref.Text
	}
	if v := r.Dirs.Global(ref); v != nil && !strings.HasPrefix(ref.Text, v.Pkg().Name()+".") {
		return v.Pkg().Name() + "." + ref.Text
	}
	return ref.Text
}
