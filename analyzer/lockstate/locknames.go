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

// AccessAt returns the recorded access whose node is e, if any.
func (f *Func) AccessAt(e ast.Expr) *Access {
	e = ast.Unparen(e)
	for _, acc := range f.Accesses {
		if acc.Node == e {
			return acc
		}
	}
	return nil
}

// Bodies groups the analysed bodies by declared function: its own body
// and the closures that run as part of it (called in place, deferred, or
// by a synchronous callback). Rules summarise functions over these.
func (r *Result) Bodies() map[*types.Func][]*Func {
	out := map[*types.Func][]*Func{}
	for _, f := range r.Funcs {
		if f.Context == Declared || f.Context == Inline || f.Context == Deferred {
			out[f.Obj] = append(out[f.Obj], f)
		}
	}
	return out
}

// EveryReturn reports whether the declared body among bodies (a
// function's entry in Bodies) has one result and returns at least once,
// and pred holds of the value every return statement returns (those of
// closures in it aside): a constructor that returns what it allocated, a
// function that returns a count it decremented.
func EveryReturn(bodies []*Func, pred func(decl *Func, result ast.Expr) bool) bool {
	var decl *Func
	for _, b := range bodies {
		if b.Lit == nil {
			decl = b
		}
	}
	if decl == nil || decl.Decl.Body == nil || decl.Obj.Type().(*types.Signature).Results().Len() != 1 {
		return false
	}
	found, all := false, true
	ast.Inspect(decl.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
			all = all && len(n.Results) == 1 && pred(decl, n.Results[0])
		}
		return all
	})
	return found && all
}
