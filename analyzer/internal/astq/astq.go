// Package astq holds the queries on syntax and types that the engine and
// the rules share: what encloses a node (Tree, on go/ast/inspector's
// cursors), a pointer's element, the struct a selection reaches through
// embedded fields. Each is written once here.
package astq

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Deref returns the element type of a pointer type, and t itself
// otherwise.
func Deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// IsPointer reports whether t is a pointer type (false for nil).
func IsPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// StructOf returns the struct type t is, or points to.
func StructOf(t types.Type) (*types.Struct, bool) {
	st, ok := Deref(t).Underlying().(*types.Struct)
	return st, ok
}

// Fields returns the struct fields an index path (a selection's
// types.Selection.Index) goes through from type t, following pointers
// between them. It returns nil if a step does not reach a struct.
func Fields(t types.Type, index []int) []*types.Var {
	var out []*types.Var
	for _, i := range index {
		st, ok := StructOf(t)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		out = append(out, f)
		t = f.Type()
	}
	return out
}

// FieldNames names the fields of an index path from t (see Fields).
func FieldNames(t types.Type, index []int) []string {
	var names []string
	for _, f := range Fields(t, index) {
		names = append(names, f.Name())
	}
	return names
}

// Contains reports whether pred holds for some node of root (root
// included) outside the function literals in it, which run at another
// time. It stops at the first.
func Contains(root ast.Node, pred func(ast.Node) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		found = pred(n)
		return !found
	})
	return found
}

// Field returns the field of st declared with name, not one promoted
// through an embedded field, or nil.
func Field(st *types.Struct, name string) *types.Var {
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == name {
			return f
		}
	}
	return nil
}

// Implicit returns the embedded fields a field or method selection goes
// through implicitly (all its steps but the last), and false if the
// selection does not go through structs.
func Implicit(sel *types.Selection) ([]*types.Var, bool) {
	idx := sel.Index()
	steps := Fields(sel.Recv(), idx[:len(idx)-1])
	return steps, steps != nil || len(idx) == 1
}

// Holder returns the type whose struct declares the selected field or
// method: the receiver, or the last embedded field on the way, with any
// pointer taken off. It is nil if the way does not go through structs.
func Holder(sel *types.Selection) types.Type {
	steps, ok := Implicit(sel)
	if !ok {
		return nil
	}
	if len(steps) == 0 {
		return Deref(sel.Recv())
	}
	return Deref(steps[len(steps)-1].Type())
}

// CallOperands returns the receiver and the arguments of a call as the
// callee sees them: x and (a) for x.m(a), and also for the method
// expression call (*T).m(x, a), whose first argument is the receiver. sel
// is the method's selection; recv and sel are nil when the call is not a
// method call.
func CallOperands(info *types.Info, call *ast.CallExpr) (recv ast.Expr, sel *types.Selection, args []ast.Expr) {
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if sel := info.Selections[se]; sel != nil {
			switch {
			case sel.Kind() == types.MethodVal:
				return se.X, sel, call.Args
			case sel.Kind() == types.MethodExpr && len(call.Args) > 0:
				return call.Args[0], sel, call.Args[1:]
			}
		}
	}
	return nil, nil, call.Args
}

// IsContainer reports whether values of t share their contents when copied:
// maps and slices, whose elements a field's guard covers.
func IsContainer(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice:
		return true
	}
	return false
}

// NewObject reports whether e makes a new object by itself: &T{...},
// new(T), or a struct value T{...}. (A call of a constructor is a new
// object too where its summary says so; see isAlloc.)
func NewObject(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			_, ok := ast.Unparen(e.X).(*ast.CompositeLit)
			return ok
		}
	case *ast.CompositeLit:
		return isStruct(info.TypeOf(e))
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" {
				return true
			}
		}
	}
	return false
}

// IsRef reports whether a value of type t refers to memory it does not
// hold: a pointer, slice or map.
func IsRef(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map:
		return true
	}
	return false
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// CalledClosures returns the closures of body bound to a local variable
// (f := func() {...}) that is only ever called afterwards, with calls
// handed to a go statement listed in goCalled: a helper that runs where it
// is called, in the caller's goroutine unless started with go.
func CalledClosures(info *types.Info, body ast.Node) (lits map[types.Object]*ast.FuncLit, goCalled map[types.Object]bool) {
	lits, goCalled = map[types.Object]*ast.FuncLit{}, map[types.Object]bool{}
	called := map[*ast.Ident]bool{}
	bad := map[types.Object]bool{}
	var uses []*ast.Ident
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.GoStmt:
			if id, ok := ast.Unparen(n.Call.Fun).(*ast.Ident); ok {
				if o := info.Uses[id]; o != nil {
					goCalled[o] = true
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				lit, isLit := ast.Unparen(n.Rhs[i]).(*ast.FuncLit)
				if !ok || !isLit || n.Tok != token.DEFINE {
					continue
				}
				if o := info.Defs[id]; o != nil {
					lits[o] = lit
				}
			}
		case *ast.Ident:
			if info.Uses[n] != nil {
				uses = append(uses, n)
			}
		}
		return true
	})
	for _, id := range uses {
		if !called[id] {
			bad[info.Uses[id]] = true
		}
	}
	for o := range lits {
		if bad[o] {
			delete(lits, o)
		}
	}
	return lits, goCalled
}

// StmtList returns the statements a block, a switch case or a select case
// holds, in order; ok is false for any other node.
func StmtList(n ast.Node) (list []ast.Stmt, ok bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}

// Received returns the channel a statement receives from (<-ch, v :=
// <-ch, v, ok = <-ch, also a select case's), with the left side it
// assigns the value to (nil for a bare receive), or a nil channel.
func Received(st ast.Stmt) (ch ast.Expr, lhs []ast.Expr) {
	var e ast.Expr
	switch st := st.(type) {
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			e, lhs = st.Rhs[0], st.Lhs
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X, lhs
	}
	return nil, nil
}

// ReturnedLit returns the function literal a call of a function literal
// returns at once, with that call: for g.Go(func(b *Block) func() error {
// return func() error { ... } }(b)), the idiom that binds a loop variable
// for a callback before Go 1.22, the inner literal is what g.Go runs.
func ReturnedLit(e ast.Expr) (*ast.CallExpr, *ast.FuncLit) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	outer, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok || len(outer.Body.List) != 1 {
		return nil, nil
	}
	ret, ok := outer.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, nil
	}
	lit, ok := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
	if !ok {
		return nil, nil
	}
	return call, lit
}

// Name returns the identifier that names e, parentheses aside: e itself
// or a selector's Sel (x.f, pkg.F); nil for any other expression.
func Name(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// CalleeName is Name of a call's function, which may also be an
// instantiation (f[T](x), pkg.F[T, U](x)): then the instantiated
// function's name. It is nil for a call of any other expression.
func CalleeName(call *ast.CallExpr) *ast.Ident {
	switch x := ast.Unparen(call.Fun).(type) {
	case *ast.IndexExpr:
		return Name(x.X)
	case *ast.IndexListExpr:
		return Name(x.X)
	}
	return Name(call.Fun)
}
