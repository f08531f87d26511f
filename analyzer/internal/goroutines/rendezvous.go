package goroutines

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// Rendezvous: a goroutine stopped by a send it receives.
//
//	stop := make(chan struct{})
//	go func() {
//		for {
//			select {
//			case <-stop:
//				return
//			default:
//				c.Get(1)
//			}
//		}
//	}()
//	...
//	stop <- struct{}{} // joins the goroutine
//
// A receive from an unbuffered channel is synchronized before the send
// it pairs with completes, so what the goroutine did before it received
// happens before the starter goes on from the send. When the goroutine
// returns at once after that receive (no result to compute, no deferred
// call), it does nothing afterwards: the send is a join. The channel must
// be the starter's own, made unbuffered (make(chan T), or with capacity
// 0) in the same body, started once (not in a loop), and used there only
// to send on and by this goroutine: a second receiver could take the send.

// rendezvousKeys returns the channels lit returns right after receiving
// from, as "send" joins: the starter's send on one of them joins it.
func rendezvousKeys(lit *ast.FuncLit) []joinKey {
	if hasDefer(lit.Body) {
		return nil
	}
	var keys []joinKey
	add := func(x ast.Expr) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			keys = append(keys, joinKey{"send", id.Name})
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CommClause:
			if x := received(n.Comm); x != nil && len(n.Body) == 1 && bareReturn(n.Body[0]) {
				add(x)
			}
		case *ast.BlockStmt:
			for i, st := range n.List {
				if x := received(st); x != nil && (i+1 < len(n.List) && bareReturn(n.List[i+1]) || n == lit.Body && i+1 == len(n.List)) {
					add(x)
				}
			}
		}
		return true
	})
	return keys
}

// received returns the channel a statement receives from, keeping the
// value nowhere the starter can see (<-ch, _ = <-ch, v := <-ch), or nil.
func received(st ast.Stmt) ast.Expr {
	ch, lhs := astq.Received(st)
	if as, ok := st.(*ast.AssignStmt); ok && as.Tok != token.DEFINE {
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return nil // v = <-ch: a store after the receive
			}
		}
	}
	return ch
}

func bareReturn(st ast.Stmt) bool {
	r, ok := st.(*ast.ReturnStmt)
	return ok && len(r.Results) == 0
}

func hasDefer(body *ast.BlockStmt) bool {
	return astq.Contains(body, func(n ast.Node) bool { _, ok := n.(*ast.DeferStmt); return ok })
}

// rendezvous reports whether the send statement m of s.Body joins s: its
// channel is one s returns right after receiving from, a local of the
// body made unbuffered there, s starts once, and the body uses the channel
// only to send on it and in s's own function.
func (s *Spawn) rendezvous(info *types.Info, m *ast.SendStmt) bool {
	id, ok := ast.Unparen(m.Chan).(*ast.Ident)
	if !ok || s.Lit == nil || len(s.Loops) > 0 || !s.hasKey("send", id.Name) {
		return false
	}
	ch, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	made, other := false, false
	ast.Inspect(s.Body.Block, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if n == s.Lit {
				return false // the goroutine's own receives
			}
		case *ast.SendStmt:
			if x, ok := ast.Unparen(n.Chan).(*ast.Ident); ok && info.Uses[x] == types.Object(ch) {
				ast.Inspect(n.Value, func(v ast.Node) bool {
					if x, ok := v.(*ast.Ident); ok && info.Uses[x] == types.Object(ch) {
						other = true
					}
					return true
				})
				return false
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if x, ok := n.Lhs[0].(*ast.Ident); ok && (info.Defs[x] == types.Object(ch) || info.Uses[x] == types.Object(ch)) {
					if made || !unbufferedMake(info, n.Rhs[0]) {
						other = true
					}
					made = true
					return false
				}
			}
		case *ast.Ident:
			if info.Uses[n] == types.Object(ch) {
				other = true // received, handed on or kept elsewhere
			}
		}
		return !other
	})
	return made && !other
}

// unbufferedMake reports whether e is make(chan T) or make(chan T, 0).
func unbufferedMake(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "make" {
		return false
	}
	if _, ok := info.TypeOf(call).Underlying().(*types.Chan); !ok {
		return false
	}
	if len(call.Args) == 1 {
		return true
	}
	tv, ok := info.Types[call.Args[1]]
	return len(call.Args) == 2 && ok && tv.Value != nil && constant.Sign(tv.Value) == 0
}
