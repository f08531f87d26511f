package guardinfer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Reads ordered by closing a channel: publish, then close.
//
//	s.err = err // with or without a lock
//	close(s.done)
//	...
//	case <-s.done:
//		return nil, s.err
//
// Closing a channel happens before every receive it completes. A read made
// after receiving from a channel of the same object (in the select case
// that receives, or after a plain receive earlier in a block that holds
// it) comes after every write of the field whose function goes on to close
// that channel: later in its body, in a deferred call, or in a method of
// the object it calls after the write (s.err = err; s.Close()). A write in
// a helper counts when every call of the helper is followed so. The read
// is not a miss of the lock then: nothing can write the field after the
// receive.

// maxCloseDepth bounds how far afterClose follows calls, down into the
// methods a writer calls and up to the callers of a helper that writes.
const maxCloseDepth = 3

// afterClose reports whether a, a read, is ordered after every plain write
// among accs by a channel close it receives from.
func (r *inference) afterClose(a *lockstate.Access, accs []*lockstate.Access) bool {
	writes := 0
	for _, w := range accs {
		if w == a || !w.Write || w.Atomic {
			continue
		}
		writes++
		if !r.closedBefore(w, a) {
			return false
		}
	}
	return writes > 0
}

// closedBefore reports whether the write w is followed by closing a
// channel that the read a receives from before it reads.
func (r *inference) closedBefore(w, a *lockstate.Access) bool {
	if a.Write || !a.Base.Valid() || !w.Base.Valid() {
		return false
	}
	f := r.funcOf[w]
	if f == nil {
		return false
	}
	for _, ch := range r.receivedBefore(a) {
		// The channel as a path from the written object: a field of it
		// (s.done for s.err), or of the same root when both accesses
		// reach the field by the same path (w.flusher.closed for
		// w.free.blocks).
		var want lockpath.Path
		if rel, ok := strings.CutPrefix(ch.Sel, a.Base.Sel); ok {
			want = lockpath.Path{Root: w.Base.Root, Sel: w.Base.Sel + rel}
		} else if w.Base.Sel == a.Base.Sel && sameType(w.Base.Root, a.Base.Root) {
			want = lockpath.Path{Root: w.Base.Root, Sel: ch.Sel}
		} else {
			continue
		}
		if r.closesAfter(f, w.Pos, want, 0) {
			return true
		}
	}
	return false
}

// receivedBefore returns the channels of a's object that a, a read, comes
// after receiving from: in the select case that receives, or after a
// plain receive earlier in a block that holds it.
func (r *inference) receivedBefore(a *lockstate.Access) []lockpath.Path {
	if a.Write || !a.Base.Valid() {
		return nil
	}
	var chans []lockpath.Path
	add := func(f *lockstate.Func, x ast.Expr) {
		if ch := f.Resolver.Of(x); ch.Valid() && ch.Root == a.Base.Root {
			chans = append(chans, ch)
		}
	}
	r.aroundRead(a, func(f *lockstate.Func, n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CommClause:
			if len(n.Body) > 0 && n.Body[0].Pos() <= a.Pos {
				if x, _ := astq.Received(n.Comm); x != nil {
					add(f, x)
				}
			}
		case *ast.BlockStmt:
			for _, st := range n.List {
				if st.End() > a.Pos {
					break
				}
				if x, _ := astq.Received(st); x != nil {
					add(f, x)
				}
			}
		}
		return false
	})
	return chans
}

func sameType(x, y types.Object) bool { return types.Identical(x.Type(), y.Type()) }

// closesAfter reports whether f, on reaching pos, goes on to close the
// channel at ch: close(ch) later in its body, a deferred close, a later
// call of a method of the package that closes it, or, for a helper, every
// call of it doing so.
func (r *inference) closesAfter(f *lockstate.Func, pos token.Pos, ch lockpath.Path, depth int) bool {
	if depth > maxCloseDepth {
		return false
	}
	body := f.Body()
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // another function's body (a deferred one is below)
		case *ast.DeferStmt:
			found = r.closesIn(f, n.Call, ch) || r.deferredLitCloses(f, n.Call, ch)
			return false
		case *ast.CallExpr:
			if n.Pos() > pos && (r.closesIn(f, n, ch) || r.calleeCloses(f, n, ch, depth)) {
				found = true
			}
		}
		return true
	})
	if found {
		return true
	}
	// A helper: every call of it must be followed so.
	if f.Lit != nil || f.Obj == nil {
		return false
	}
	recv := f.Obj.Type().(*types.Signature).Recv()
	fn := f.Obj.Origin()
	sites := r.callers[fn]
	if recv == nil || ch.Root != types.Object(recv) || !r.calledOnly(fn) || fn.Exported() {
		return false
	}
	for _, site := range sites {
		x, ok := site.recv()
		if !ok {
			return false
		}
		at := site.fn.Resolver.Of(x)
		if !at.Valid() || !r.closesAfter(site.fn, site.call.Node.Pos(), lockpath.Path{Root: at.Root, Sel: at.Sel + ch.Sel}, depth+1) {
			return false
		}
	}
	return true
}

// closesIn reports whether call is close(ch).
func (r *inference) closesIn(f *lockstate.Func, call *ast.CallExpr, ch lockpath.Path) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) != 1 {
		return false
	}
	if _, builtin := r.pass.TypesInfo.Uses[id].(*types.Builtin); !builtin || id.Name != "close" {
		return false
	}
	return f.Resolver.Of(call.Args[0]) == ch
}

// deferredLitCloses reports whether call is defer func() { ... close(ch)
// ... }() in f.
func (r *inference) deferredLitCloses(f *lockstate.Func, call *ast.CallExpr, ch lockpath.Path) bool {
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && !found && r.closesIn(f, c, ch) {
			found = true
		}
		return !found
	})
	return found
}

// calleeCloses reports whether call is a call of a method of the package,
// on the object ch belongs to (or a part of it), whose body closes ch.
func (r *inference) calleeCloses(f *lockstate.Func, call *ast.CallExpr, ch lockpath.Path, depth int) bool {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := r.pass.TypesInfo.Uses[se.Sel].(*types.Func)
	if !ok || fn.Pkg() != r.pass.Pkg {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	at := f.Resolver.Of(se.X)
	if recv == nil || !at.Valid() || at.Root != ch.Root {
		return false
	}
	rest, ok := strings.CutPrefix(ch.Sel, at.Sel)
	if !ok {
		return false
	}
	g := r.declFunc(fn.Origin())
	return g != nil && r.closesAfter(g, token.NoPos, lockpath.Path{Root: recv, Sel: rest}, depth+1)
}

// declFunc returns the records of one of the package's declared functions.
func (r *inference) declFunc(fn *types.Func) *lockstate.Func {
	if r.declFuncs == nil {
		r.declFuncs = map[*types.Func]*lockstate.Func{}
		for _, f := range r.ls.Funcs {
			if f.Lit == nil && f.Obj != nil {
				r.declFuncs[f.Obj] = f
			}
		}
	}
	return r.declFuncs[fn]
}
