package checkthenact

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Check-then-acts that cannot lose an update. Each is left out by default
// and reported under -config.strict.

// decidedHere reports whether the write evs[k] of body runs only when a
// read of the same field (the same part, the same object) that the
// function makes itself under the lock says so: a branch or guard clause
// on that read decides it (if state != want { return err } ... write). A
// write in a closure counts as decided when the closure (deferred, or
// called in place) is only reached that way in the body around it. A
// caller whose own earlier read of the field led it here does not decide
// the write; the callee's read does, and its staleness is the callee's
// finding. bodies are the function's bodies.
func (c *checker) decidedHere(bodies []*lockstate.Func, body *lockstate.Func, evs []event, k int) bool {
	w := evs[k]
	if w.decided {
		return true // decided inside the helper that writes
	}
	if w.rechecked {
		return false
	}
	if c.decidedBy(body, evs[:k], w, w.node) {
		return true
	}
	for lit := body.Lit; lit != nil; {
		outer := enclosing(bodies, lit)
		if outer == nil {
			return false
		}
		if c.decidedBy(outer, c.events(outer), w, lit) {
			return true
		}
		lit = outer.Lit
	}
	return false
}

// decidedBy reports whether a read among evs, of the field w writes,
// decides whether node runs in body.
func (c *checker) decidedBy(body *lockstate.Func, evs []event, w event, node ast.Node) bool {
	parents := c.syntax.Tree(body.Body())
	for _, r := range evs {
		if r.write || r.internal || !sameField(r, w) || r.node.Pos() >= node.Pos() {
			continue
		}
		c.curResults = r.results
		decided := c.controlledBy(body, parents, node, r.node)
		c.curResults = nil
		if decided {
			return true
		}
	}
	return false
}

// enclosing returns the body among bodies that holds the closure lit most
// closely.
func enclosing(bodies []*lockstate.Func, lit *ast.FuncLit) *lockstate.Func {
	var best *lockstate.Func
	for _, b := range bodies {
		body := b.Body()
		if b.Lit == lit || body == nil || lit.Pos() < body.Pos() || lit.End() > body.End() {
			continue
		}
		if best == nil || body.Pos() > best.Body().Pos() {
			best = b
		}
	}
	return best
}

// cannotLose reports whether the write w, decided by a branch on the
// earlier read r (and storing nothing computed from it), cannot lose an
// update or break what the check established, whatever was stored in
// between. The branch must decide nothing but the write: its statements are
// the assignment and the lock calls around it (anything else it runs, a
// close, a call, would act on the stale check too). Then either
//   - the write stores V only when the read said the field differed from
//     V (if x != V { x = V }), V a constant or a variable the branch does
//     not change: had the check been made under the lock that writes, the
//     field would hold V or be given V, as it is now (store-if-differs);
//   - or the write stores a constant that every write of the field in the
//     package stores (a flag only ever set to true, a field only ever
//     cleared to nil once built): any write made in between stored the
//     same value, so writing it again loses nothing (one-way).
func (c *checker) cannotLose(f *lockstate.Func, parents *astq.Tree, w, r event) bool {
	if w.helper != "" || w.sub != "" {
		return false
	}
	as, ok := parents.Parent(w.node).(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Lhs[0] != w.node {
		return false
	}
	branch, cond := c.decidingBranch(f, parents, as, r.node)
	if branch == nil || !c.onlyActs(branch, as) {
		return false
	}
	rhs := as.Rhs[0]
	if c.storeIfDiffers(f, cond, r.node, rhs) && c.onlyDecider(f, parents, w.node, r.node, cond) {
		return true
	}
	acc := f.AccessAt(w.node.(ast.Expr))
	return acc != nil && c.oneValue(acc.Var, rhs)
}

// decidingBranch returns the branch of the nearest if around stmt whose
// condition uses the read r, and that condition.
func (c *checker) decidingBranch(f *lockstate.Func, parents *astq.Tree, stmt ast.Stmt, r ast.Node) (*ast.BlockStmt, ast.Expr) {
	for n, parent := range parents.Ancestry(stmt) {
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			continue
		}
		is, ok := parent.(*ast.IfStmt)
		if !ok {
			continue
		}
		if c.condOn(f, is.Cond, is.Init, r) {
			return block, is.Cond
		}
	}
	return nil, nil
}

// onlyActs reports whether the statements of block are the act (the
// assignment or the store) and calls that take or release locks.
func (c *checker) onlyActs(block *ast.BlockStmt, act ast.Stmt) bool {
	for _, s := range block.List {
		if s == act {
			continue
		}
		var call ast.Expr
		switch s := s.(type) {
		case *ast.ExprStmt:
			call = s.X
		case *ast.DeferStmt:
			call = s.Call
		}
		ce, ok := call.(*ast.CallExpr)
		if !ok {
			return false
		}
		if _, ok := locks.AsCall(c.pass.TypesInfo, ce); !ok {
			return false
		}
	}
	return true
}

// atomicStoreIfDiffers reports whether a sync/atomic store decided by the
// load l stores V only when the load said the variable differed from V
// (if x.Load() != V { x.Store(V) }), and the branch does nothing else: as
// for a field (cannotLose), had the load and store been one operation the
// variable would end the same. A flag kept advisory on purpose (to spare
// the cache line a CompareAndSwap takes) is the usual case.
func (c *checker) atomicStoreIfDiffers(f *lockstate.Func, parents *astq.Tree, store, load atomicOp) bool {
	stmt, ok := parents.Parent(store.call.Node).(*ast.ExprStmt)
	if !ok || store.value == nil {
		return false
	}
	branch, cond := c.decidingBranch(f, parents, stmt, load.call.Node)
	return branch != nil && c.onlyActs(branch, stmt) && c.storeIfDiffers(f, cond, load.call.Node, store.value) &&
		c.onlyDecider(f, parents, store.call.Node, load.call.Node, cond)
}

// onlyDecider reports whether cond is the only branch on the read r that
// decides whether w runs: a guard clause on r before it (if v == closed {
// return }) would be acted on too, stale, and storing V could then undo
// what the check meant to keep.
func (c *checker) onlyDecider(f *lockstate.Func, parents *astq.Tree, w, r ast.Node, cond ast.Expr) bool {
	fg := c.flow(f)
	if fg == nil {
		return false
	}
	for _, b := range fg.controllers(parents, w) {
		conds, init, ok := branchCond(parents, b)
		if !ok || !c.anyCondOn(f, conds, init, r, w) {
			continue
		}
		if len(conds) != 1 || ast.Unparen(conds[0].(ast.Expr)) != ast.Unparen(cond) {
			return false
		}
	}
	return true
}

// storeIfDiffers reports whether cond is X != V (or V != X), X using the
// read r, and v, the value stored, is V: a constant, or a variable
// (unchanged between the check and the store, the branch doing nothing
// else).
func (c *checker) storeIfDiffers(f *lockstate.Func, cond ast.Expr, r ast.Node, v ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	if !c.stable(v) {
		return false
	}
	usesRead := func(e ast.Expr) bool { return c.containsValue(e, r) || c.usesValueOf(f, e, r) }
	same := func(e ast.Expr) bool { return types.ExprString(ast.Unparen(e)) == types.ExprString(ast.Unparen(v)) }
	return (usesRead(be.X) && same(be.Y)) || (usesRead(be.Y) && same(be.X))
}

// stable reports whether e is a constant, nil, or a local variable or
// parameter.
func (c *checker) stable(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope()
}

// oneValue reports whether v, a constant or nil, is the value every write
// of field in the package stores: each assignment to it (outside composite
// literals, which build the object) stores a constant equal to v, and
// nothing increments it, takes its address, or writes it from another
// package (the field is unexported).
func (c *checker) oneValue(field *types.Var, v ast.Expr) bool {
	want, ok := c.constText(v)
	if !ok || field == nil {
		return false
	}
	field = field.Origin()
	if field.Exported() || field.Pkg() != c.pass.Pkg {
		return false
	}
	if c.fieldValues == nil {
		c.fieldValues = map[*types.Var]string{}
	}
	got, done := c.fieldValues[field]
	if !done {
		got = c.storedValue(field)
		c.fieldValues[field] = got
	}
	return got != "" && got == want
}

// storedValue returns the constant every write of field in the package
// stores, or "" if the writes store anything else, or differ.
func (c *checker) storedValue(field *types.Var) string {
	isField := func(e ast.Expr) bool {
		se, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		obj, ok := c.pass.TypesInfo.Uses[se.Sel].(*types.Var)
		return ok && obj.Origin() == field
	}
	value, ok := "", true
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if holdsByValue(c.pass.TypesInfo.TypeOf(lhs), field) {
						ok = false // *c = Conn{}: the field is written with the rest
						break
					}
					if !isField(lhs) {
						continue
					}
					if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
						ok = false
						break
					}
					s, isConst := c.constText(n.Rhs[i])
					if !isConst || (value != "" && s != value) {
						ok = false
					}
					value = s
				}
			case *ast.IncDecStmt:
				ok = ok && !isField(n.X)
			case *ast.UnaryExpr:
				ok = ok && !(n.Op == token.AND && isField(n.X))
			case *ast.RangeStmt:
				ok = ok && !(n.Key != nil && isField(n.Key)) && !(n.Value != nil && isField(n.Value))
			}
			return ok
		})
	}
	if !ok {
		return ""
	}
	return value
}

// constText spells a constant or nil value, to compare two of them.
func (c *checker) constText(e ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[ast.Unparen(e)]
	switch {
	case !ok:
		return "", false
	case tv.IsNil():
		return "nil", true
	case tv.Value != nil:
		return tv.Value.ExactString(), true
	}
	return "", false
}

// holdsByValue reports whether a value of type t holds field directly: a
// struct of which it is a field.
func holdsByValue(t types.Type, field *types.Var) bool {
	if t == nil {
		return false
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Origin() == field {
			return true
		}
	}
	return false
}
