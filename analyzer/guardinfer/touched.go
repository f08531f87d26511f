package guardinfer

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
)

// Sharing, finer than "the object escaped": an object handed to its own
// methods, a local helper closure, a named result.
//
// Sharing an object with a method of its own: a constructor that
// registers n.handleAppend as a callback, or starts go n.run(), hands n to
// code that touches only the fields those methods reach through their
// receiver. Until the object is shared some other way, its other fields
// are still the constructor's alone. touchedBy answers which fields a
// method reaches, read from its declaration and those of the methods it
// calls on its receiver.

// fieldSet is a set of fields; nil stands for "any field" (unknown).
type fieldSet map[*types.Var]bool

// touchedBy returns the fields of its receiver that method fn (and the
// methods of the package it calls on the receiver, or takes as values
// from it) selects directly, or nil when it cannot tell: a method of
// another package, a receiver used other than by selecting from it (handed
// to a call, stored, returned), or no declaration.
func (cs *contexts) touchedBy(fn *types.Func) fieldSet {
	if cs.touched == nil {
		cs.touched = map[*types.Func]fieldSet{}
	}
	fn = fn.Origin()
	if got, ok := cs.touched[fn]; ok {
		if got == nil && cs.busy[fn] {
			return fieldSet{} // recursion: what the outer call collects
		}
		return got
	}
	if cs.busy == nil {
		cs.busy = map[*types.Func]bool{}
	}
	cs.busy[fn] = true
	cs.touched[fn] = nil
	out := cs.collectTouched(fn)
	delete(cs.busy, fn)
	cs.touched[fn] = out
	return out
}

func (cs *contexts) collectTouched(fn *types.Func) fieldSet {
	if cs.declOf == nil {
		return nil
	}
	fd := cs.declOf(fn)
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || fd.Body == nil || sig == nil || sig.Recv() == nil {
		return nil
	}
	recv := sig.Recv()
	if recv.Name() == "" || recv.Name() == "_" {
		return fieldSet{} // no name: the body cannot reach it
	}
	out := fieldSet{}
	selected := map[*ast.Ident]bool{}
	unknown := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if unknown {
			return false
		}
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(se.X).(*ast.Ident)
		if !ok || cs.info.Uses[id] != types.Object(recv) {
			return true
		}
		selected[id] = true
		sel := cs.info.Selections[se]
		if sel == nil {
			unknown = true
			return false
		}
		if steps, ok := astq.Implicit(sel); ok && len(steps) > 0 {
			out[steps[0]] = true // promoted through an embedded field
		}
		switch sel.Kind() {
		case types.FieldVal:
			out[sel.Obj().(*types.Var)] = true
		default:
			m, _ := sel.Obj().(*types.Func)
			if m == nil || m.Pkg() != fn.Pkg() {
				unknown = true
				return false
			}
			sub := cs.touchedBy(m)
			if sub == nil {
				unknown = true
				return false
			}
			for f := range sub {
				out[f] = true
			}
		}
		return true
	})
	if unknown {
		return nil
	}
	// Any other use of the receiver hands the whole object on.
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && cs.info.Uses[id] == types.Object(recv) && !selected[id] {
			unknown = true
		}
		return !unknown
	})
	if unknown {
		return nil
	}
	return out
}

// touches reports whether methods, the ways the object was handed on,
// may reach field (nil: any field, so yes).
func (cs *contexts) touches(methods []*types.Func, field *types.Var) bool {
	if field == nil {
		return true
	}
	for _, m := range methods {
		set := cs.touchedBy(m)
		if set == nil || set[field] {
			return true
		}
	}
	return false
}

// methodValuesOnly returns, when n refers to v as a value only through
// method values (v.m passed or stored, not called) and otherwise only
// selects from it or calls its methods, those methods; ok is false when
// n uses v some other way.
func (dc *declContext) methodValuesOnly(n ast.Node, v *types.Var) (methods []*types.Func, ok bool) {
	ok = true
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		if call, isCall := x.(*ast.CallExpr); isCall {
			if se, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
				called[se] = true
			}
		}
		return true
	})
	inSelector := map[*ast.Ident]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		if !ok {
			return false
		}
		se, isSel := x.(*ast.SelectorExpr)
		if !isSel {
			return true
		}
		id, isID := ast.Unparen(se.X).(*ast.Ident)
		if !isID || dc.info.Uses[id] != types.Object(v) {
			return true
		}
		inSelector[id] = true
		if sel := dc.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal && !called[se] {
			m, _ := sel.Obj().(*types.Func)
			if m == nil {
				ok = false
				return false
			}
			methods = append(methods, m)
		}
		return true
	})
	ast.Inspect(n, func(x ast.Node) bool {
		if id, isID := x.(*ast.Ident); isID && dc.info.Uses[id] == types.Object(v) && !inSelector[id] {
			ok = false
		}
		return ok
	})
	return methods, ok && len(methods) > 0
}

// firstField is the field an access selects directly from the local v
// (x in v.x.y), or nil.
func firstField(info *types.Info, se *ast.SelectorExpr, v *types.Var) *types.Var {
	for {
		id, ok := ast.Unparen(se.X).(*ast.Ident)
		if ok && info.Uses[id] == types.Object(v) {
			sel := info.Selections[se]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			if steps, ok := astq.Implicit(sel); ok && len(steps) > 0 {
				return steps[0]
			}
			return sel.Obj().(*types.Var)
		}
		inner, ok := ast.Unparen(se.X).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		se = inner
	}
}

// namedResult reports whether v is one of fd's named results (fs in
// func newStore() (fs *fileStore, err error)): a local of the body too.
func namedResult(fd *ast.FuncDecl, v *types.Var) bool {
	if fd.Type.Results == nil {
		return false
	}
	for _, f := range fd.Type.Results.List {
		for _, name := range f.Names {
			if name.Pos() == v.Pos() {
				return true
			}
		}
	}
	return false
}

// receiverOnly returns m when s is go v.m(args) with v in none of args.
func (dc *declContext) receiverOnly(s *goroutines.Spawn, v *types.Var) *types.Func {
	g, ok := s.Node.(*ast.GoStmt)
	if !ok || s.Callee == nil {
		return nil
	}
	se, ok := ast.Unparen(g.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := ast.Unparen(se.X).(*ast.Ident); !ok || dc.info.Uses[id] != types.Object(v) {
		return nil
	}
	for _, a := range g.Call.Args {
		if dc.mention(a, v, true) != mentionNone {
			return nil
		}
	}
	return s.Callee
}

// localHelper returns the function literal n defines, when n is f :=
// func(...) {...} (or var f = ...) and f is only ever called, outside go
// statements: a helper that runs in this goroutine.
func (dc *declContext) localHelper(n *ast.AssignStmt) *ast.FuncLit {
	if len(n.Lhs) != 1 || len(n.Rhs) != 1 || n.Tok != token.DEFINE {
		return nil
	}
	id, ok := n.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	if dc.helpers == nil {
		lits, inGo := astq.CalledClosures(dc.info, dc.fd.Body)
		dc.helpers = map[types.Object]*ast.FuncLit{}
		for o, lit := range lits {
			if !inGo[o] {
				dc.helpers[o] = lit
			}
		}
	}
	if lit := dc.helpers[dc.info.Defs[id]]; lit == ast.Unparen(n.Rhs[0]) {
		return lit
	}
	return nil
}

// helperCalls returns where the local helper that lit defines is called
// (f := func() {...}; f()), or nil when lit is not one.
func (dc *declContext) helperCalls(lit *ast.FuncLit) []token.Pos {
	var obj types.Object
	ast.Inspect(dc.fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && obj == nil {
			if l := dc.localHelper(as); l == lit {
				obj = dc.info.Defs[as.Lhs[0].(*ast.Ident)]
			}
		}
		return obj == nil
	})
	if obj == nil {
		return nil
	}
	var at []token.Pos
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				if x != n {
					walk(x.Body, true)
					return false
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && dc.info.Uses[id] == obj {
					if nested {
						at = append(at, token.NoPos) // called from another closure: not known private
					} else {
						at = append(at, x.Pos())
					}
				}
			}
			return true
		})
	}
	walk(dc.fd.Body, false)
	return at
}
