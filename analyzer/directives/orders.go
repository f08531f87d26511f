package directives

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// Declarations on types: //guard:order and +checklocksalias, and the
// //guard:only getters found for fixes.

// findGetters looks, for each //guard:only field, for a listed method that
// takes nothing and just returns the field (func (s *S) lockedPTMX()
// *os.File { ...; return s.ptmx }). Reads elsewhere can then be rewritten
// to call it.
func findGetters(pass *analysis.Pass, res *Result) {
	only := map[string][]*types.Var{} // FuncKey -> fields listing it
	for v, g := range res.fields {
		if v.Pkg() == pass.Pkg && len(g.Only) > 0 && v.IsField() {
			for _, k := range g.Only {
				only[k] = append(only[k], v)
			}
		}
	}
	if len(only) == 0 {
		return
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Recv.List[0].Names) == 0 {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
				continue
			}
			recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
			for _, field := range only[FuncKey(fn)] {
				if !types.Identical(sig.Results().At(0).Type(), field.Type()) || !returnsField(pass.TypesInfo, fd.Body, recv, field) {
					continue
				}
				if g := res.fields[field]; g.Getter == "" || fd.Name.Name < g.Getter {
					g.Getter = fd.Name.Name
				}
			}
		}
	}
}

// returnsField reports whether every return in body returns recv.field.
func returnsField(info *types.Info, body *ast.BlockStmt, recv types.Object, field *types.Var) bool {
	found, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				other = true
				return false
			}
			se, ok := ast.Unparen(n.Results[0]).(*ast.SelectorExpr)
			if ok && info.Uses[se.Sel] == field {
				if id, ok := ast.Unparen(se.X).(*ast.Ident); ok && info.Uses[id] == recv {
					found = true
					return false
				}
			}
			other = true
		}
		return true
	})
	return found && !other
}

// order resolves //guard:order: paths relative to the annotated struct type
// (mu, inner.mu), or qualified ones across types (T.mu, pkg.T.mu, or a
// package-level lock variable).
func (c *collector) order(d Directive, owner *types.TypeName) {
	o := LocalOrder{Pos: d.Pos}
	o.Where = c.pass.Pkg.Name()
	if owner != nil {
		o.Where += "." + owner.Name()
	}
	seen := map[string]bool{}
	for _, arg := range d.Args {
		key, _, ok := c.orderClass(arg, owner)
		if !ok {
			where := "a package-level lock or a lock field of a type in this package (T.mu, pkg.T.mu)"
			if owner != nil {
				where = "a lock field of " + owner.Name() + " (mu, inner.mu), " + where
			}
			c.report(d.Pos, "//guard:order "+shorten(arg)+": does not name a lock; write "+where)
			return
		}
		if seen[key] {
			c.report(d.Pos, "//guard:order lists "+shorten(arg)+" twice; each lock appears once, outermost first")
			return
		}
		seen[key] = true
		o.Classes = append(o.Classes, key)
		o.Texts = append(o.Texts, arg)
	}
	c.res.Local = append(c.res.Local, o)
}

func (c *collector) orderClass(arg string, owner *types.TypeName) (string, string, bool) {
	segs := strings.Split(arg, ".")
	if owner != nil {
		if k, disp, ok := lockpath.ClassFrom(owner.Type(), segs); ok {
			return k, disp, true
		}
	}
	scope := c.pass.Pkg.Scope()
	lookup := func(sc *types.Scope, segs []string) (string, string, bool) {
		switch obj := sc.Lookup(segs[0]).(type) {
		case *types.TypeName:
			return lockpath.ClassFrom(obj.Type(), segs[1:])
		case *types.Var:
			if len(segs) == 1 {
				if lock, _ := locks.IsLock(obj.Type()); lock {
					return obj.Pkg().Path() + "." + obj.Name(), obj.Pkg().Name() + "." + obj.Name(), true
				}
				return "", "", false
			}
			return lockpath.ClassFrom(obj.Type(), segs[1:])
		}
		return "", "", false
	}
	if k, disp, ok := lookup(scope, segs); ok {
		return k, disp, true
	}
	if fileScope := c.pass.TypesInfo.Scopes[c.file]; fileScope != nil && len(segs) > 1 {
		if pn, ok := fileScope.Lookup(segs[0]).(*types.PkgName); ok {
			return lookup(pn.Imported().Scope(), segs[1:])
		}
	}
	return "", "", false
}

// alias resolves +checklocksalias:a.b=c on a struct type: both sides must
// name locks of the struct. The equation is recorded for the type (see
// Result.CanonLock), so both names denote one lock wherever lock paths are
// compared, and for the struct's own field guards (FieldGuard.Alias).
func (c *collector) alias(d Directive, ts *ast.TypeSpec, tn *types.TypeName) {
	left, right, ok := strings.Cut(d.Args[0], "=")
	st, _ := c.pass.TypesInfo.TypeOf(ts.Type).(*types.Struct)
	if !ok || st == nil {
		c.report(d.Pos, d.Spelling+" needs two lock paths joined by =, as in +checklocksalias:inner.mu=mu, on a struct type")
		return
	}
	var pair [2]LockRef
	for i, side := range []string{left, right} {
		ref, problem := c.resolveFieldLock(st, side)
		if problem != "" {
			c.report(d.Pos, d.Spelling+" "+shorten(side)+": "+problem)
			return
		}
		pair[i] = ref
	}
	if c.aliases == nil {
		c.aliases = map[*types.Struct][][2]LockRef{}
	}
	c.aliases[st] = append(c.aliases[st], pair)
	if tn == nil {
		return
	}
	c.res.addAliases(tn, [][2]LockRef{pair})
	for i := range c.res.localAliases {
		if c.res.localAliases[i].tn == tn {
			c.res.localAliases[i].pairs = append(c.res.localAliases[i].pairs, pair)
			return
		}
	}
	c.res.localAliases = append(c.res.localAliases, typeAliases{tn: tn, pairs: [][2]LockRef{pair}})
}

// aliasOf returns the other name of a lock under the struct's alias
// annotations (+checklocksalias), if any.
func (c *collector) aliasOf(st *types.Struct, ref LockRef) (LockRef, bool) {
	for _, pair := range c.aliases[st] {
		for i := range pair {
			if pair[i].Kind == ref.Kind && pair[i].Sel == ref.Sel && pair[i].Name == ref.Name {
				return pair[1-i], true
			}
		}
	}
	return LockRef{}, false
}
