package goroutines

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Relayed joins: the starter does not wait for its workers itself; a
// goroutine of its own does, and then signals a channel.
//
//	done := make(chan struct{})
//	go func() {
//		wg.Wait()
//		close(done)
//	}()
//	<-done // joins every goroutine wg.Wait() joins
//
// The receive happens after the close, the close after the wait returns,
// the wait after every worker's Done: what the workers did happens before
// the starter goes on. The relay must wait first and signal after, at the
// top level of its body (close(done) or done <- v after wg.Wait(); a
// deferred close(done) anywhere; errc <- g.Wait()), and be the
// declaration's only signaller of the channel, or the receive proves
// nothing about the wait.

// relayJoins gives every start of b joined by a wait that a relay of b
// waits on the relay's channel too, as a receive.
func relayJoins(info *types.Info, b *Body, declSigs func() []posKey) {
	for _, t := range b.Spawns {
		if t.Lit == nil || len(t.Loops) > 0 {
			continue
		}
		for _, r := range relays(info, t.Lit.Body) {
			if signalledOutside(declSigs(), joinKey{"recv", r.ch}, t.Lit) {
				continue
			}
			for _, s := range b.Spawns {
				if s != t && s.hasKey("wait", r.wait) && !s.hasKey("recv", r.ch) {
					s.joinKeys = append(s.joinKeys, joinKey{"recv", r.ch})
				}
			}
		}
	}
}

type relay struct{ wait, ch string }

// relays returns what a relay's body waits on and the channel it signals
// after the wait.
func relays(info *types.Info, body *ast.BlockStmt) []relay {
	var out []relay
	var waited []string // the waits made so far, at the top level
	var deferred []string
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.ExprStmt:
			if w, ok := waitCall(info, st.X); ok {
				waited = append(waited, w)
			} else if ch, ok := closeCall(info, st.X); ok {
				for _, w := range waited {
					out = append(out, relay{w, ch})
				}
			}
		case *ast.SendStmt:
			if w, ok := waitCall(info, st.Value); ok {
				out = append(out, relay{w, key(st.Chan)}) // errc <- g.Wait()
			}
			for _, w := range waited {
				out = append(out, relay{w, key(st.Chan)})
			}
		case *ast.DeferStmt:
			if ch, ok := closeCall(info, st.Call); ok {
				deferred = append(deferred, ch)
			}
		}
	}
	for _, ch := range deferred {
		for _, w := range waited {
			out = append(out, relay{w, ch})
		}
	}
	return out
}

// waitCall: wg.Wait() or g.Wait() of an errgroup, with its receiver.
func waitCall(info *types.Info, e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return "", false
	}
	switch fn.FullName() {
	case "(*sync.WaitGroup).Wait", "(*golang.org/x/sync/errgroup.Group).Wait":
		return recvKey(call), true
	}
	return "", false
}

// closeCall: close(ch), with its channel.
func closeCall(info *types.Info, e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "close" {
		return "", false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return key(call.Args[0]), builtin
}

// signalledOutside: the declaration gives signal k outside lit too.
func signalledOutside(sigs []posKey, k joinKey, lit *ast.FuncLit) bool {
	for _, d := range sigs {
		if d.joinKey == k && (d.pos < lit.Pos() || d.pos >= lit.End()) {
			return true
		}
	}
	return false
}
