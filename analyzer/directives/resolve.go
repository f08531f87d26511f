package directives

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Lock paths in directives resolved against the types: a field's guard
// relative to its struct, a function's contract from its receiver,
// parameters or results, package-level locks, and //guard:only names.

// resolveOnly resolves a name in //guard:only: a method of the field's type,
// a package function, or Type.method.
func (c *collector) resolveOnly(typeName, name string) (string, string) {
	scope := c.pass.Pkg.Scope()
	methodOf := func(tn, m string) *types.Func {
		obj, _ := scope.Lookup(tn).(*types.TypeName)
		if obj == nil {
			return nil
		}
		f, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, c.pass.Pkg, m)
		fn, _ := f.(*types.Func)
		return fn
	}
	if tn, m, ok := strings.Cut(name, "."); ok {
		if fn := methodOf(tn, m); fn != nil {
			return FuncKey(fn), ""
		}
		return "", "no method " + shorten(m) + " on type " + shorten(tn) + " in this package"
	}
	if typeName != "" {
		if fn := methodOf(typeName, name); fn != nil {
			return FuncKey(fn), ""
		}
	}
	if fn, ok := scope.Lookup(name).(*types.Func); ok {
		return FuncKey(fn), ""
	}
	where := "no package function " + shorten(name)
	if typeName != "" {
		where = "no method " + shorten(name) + " on " + typeName + " and no package function " + shorten(name)
	}
	return "", where + "; list existing functions (Type.method for another type's method)"
}

// resolveFieldLock resolves a lock path in a field directive: relative to
// the struct, or a package-level variable (mu, pkg.Mu).
func (c *collector) resolveFieldLock(strct *types.Struct, path string) (LockRef, string) {
	segs := strings.Split(path, ".")
	if strct != nil {
		if obj, index, _ := types.LookupFieldOrMethod(strct, true, c.pass.Pkg, segs[0]); obj != nil {
			if fv, ok := obj.(*types.Var); ok && fv.IsField() {
				sel := "." + strings.Join(astq.FieldNames(strct, index), ".")
				return c.finishLock(LockRef{Kind: Relative, Text: path}, fv.Type(), sel, segs[1:])
			}
		}
	}
	return c.resolveGlobal(path, segs, strct != nil)
}

func (c *collector) resolveGlobal(path string, segs []string, inStruct bool) (LockRef, string) {
	scopeOfFile := c.pass.TypesInfo.Scopes[c.file]
	if v, ok := c.pass.Pkg.Scope().Lookup(segs[0]).(*types.Var); ok {
		return c.finishLock(LockRef{Kind: Global, PkgPath: c.pass.Pkg.Path(), Name: v.Name(), Text: path}, v.Type(), "", segs[1:])
	}
	if len(segs) > 1 && scopeOfFile != nil {
		if pn, ok := scopeOfFile.Lookup(segs[0]).(*types.PkgName); ok {
			if v, ok := pn.Imported().Scope().Lookup(segs[1]).(*types.Var); ok {
				return c.finishLock(LockRef{Kind: Global, PkgPath: v.Pkg().Path(), Name: v.Name(), Text: path}, v.Type(), "", segs[2:])
			}
			return LockRef{}, "package " + segs[0] + " has no variable " + shorten(segs[1])
		}
	}
	if inStruct {
		return LockRef{}, "no field " + shorten(segs[0]) + " in this struct and no package-level variable " + shorten(segs[0])
	}
	return LockRef{}, "no package-level variable " + shorten(segs[0])
}

// resolveFuncLock resolves a lock path in a function directive: rooted at
// the receiver, a parameter, a named result, or a package-level variable.
func (c *collector) resolveFuncLock(sig *types.Signature, path string) (LockRef, string) {
	segs := strings.Split(path, ".")
	root := segs[0]
	var v *types.Var
	index := 0
	if r := sig.Recv(); r != nil && r.Name() == root && root != "_" {
		v, index = r, Receiver
	}
	for i := 0; v == nil && i < sig.Params().Len(); i++ {
		if p := sig.Params().At(i); p.Name() == root && root != "_" {
			v, index = p, i
		}
	}
	for i := 0; v == nil && i < sig.Results().Len(); i++ {
		if p := sig.Results().At(i); p.Name() == root && root != "_" {
			v, index = p, sig.Params().Len()+i
		}
	}
	if v == nil {
		ref, problem := c.resolveGlobal(path, segs, false)
		if problem != "" {
			return ref, "it must start at the receiver, a parameter, a named result or a package-level variable (" + problem + ")"
		}
		return ref, ""
	}
	return c.finishLock(LockRef{Kind: Param, Param: index, Text: path}, v.Type(), "", segs[1:])
}

// finishLock walks the remaining field segments from type t and checks that
// the path ends at a lock.
func (c *collector) finishLock(ref LockRef, t types.Type, sel string, rest []string) (LockRef, string) {
	for _, seg := range rest {
		fv, index := lookupField(t, c.pass.Pkg, seg)
		if fv == nil {
			return LockRef{}, "type " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " has no field " + shorten(seg)
		}
		sel += "." + strings.Join(astq.FieldNames(t, index), ".")
		t = fv.Type()
	}
	if ok, _ := locks.IsLock(t); !ok {
		return LockRef{}, "not a lock: type " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " has no Lock and Unlock methods"
	}
	for _, f := range locks.EmbeddedPath(t, c.pass.Pkg) {
		sel += "." + f
	}
	ref.Sel = sel
	return ref, ""
}

// lookupField finds field name of type t as seen from pkg, or, for an
// unexported name, from the package that declares t: a lock path may name
// another package's unexported lock (s.PortManager.ephemeralMu), which Go
// code could not write but which names the lock all the same.
func lookupField(t types.Type, pkg *types.Package, name string) (*types.Var, []int) {
	obj, index, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	if fv, ok := obj.(*types.Var); ok && fv.IsField() {
		return fv, index
	}
	if token.IsExported(name) {
		return nil, nil
	}
	owner := t
	if p, ok := owner.Underlying().(*types.Pointer); ok {
		owner = p.Elem()
	}
	n, ok := types.Unalias(owner).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg() == pkg {
		return nil, nil
	}
	obj, index, _ = types.LookupFieldOrMethod(t, true, n.Obj().Pkg(), name)
	if fv, ok := obj.(*types.Var); ok && fv.IsField() {
		return fv, index
	}
	return nil, nil
}
