package races

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Waits and signals beyond a single instruction: a deferred close or
// Done, a helper that always waits, a wait skipped only where there is
// nothing to wait for.

// deferredSignals is the WaitGroups a deferred call signals and the
// channels it closes, as locations: a deferred Done or close, or a
// deferred function that does so on its way to every return (go-amqp's
// session loop deferring a literal that records why it ended, then
// closes s.done).
func deferredSignals(d *ssa.Defer) []string {
	if b, ok := d.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(d.Call.Args) == 1 {
		return []string{chanLocation(d.Call.Args[0])}
	}
	if wg := waitGroupOp(&d.Call, "Done"); wg != "" {
		return []string{wg}
	}
	fn := d.Call.StaticCallee()
	if fn == nil || fn.Blocks == nil {
		return nil
	}
	var out []string
	rets := returns(fn)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c := signalled(instr); c != "" && len(rets) > 0 && !slices.ContainsFunc(rets, func(r ssa.Instruction) bool { return !dominates(instr, r) }) {
				out = append(out, c)
			}
		}
	}
	return out
}

// maxWaitDepth bounds how deep alwaysReceives looks through calls.
const maxWaitDepth = 3

// alwaysReceives is the channels, atomics and WaitGroups fn receives
// from, loads or waits on before each of its returns, itself or through
// a call that always does (nats.go's waitForExits, a helper whose
// nc.wg.Wait() every reconnect calls before it rebinds the reader the
// old read loop used). Nothing for a function that never returns.
func (a *run) alwaysReceives(fn *ssa.Function, depth int) map[string]bool {
	if fn == nil || fn.Blocks == nil || depth > maxWaitDepth {
		return nil
	}
	if m, ok := a.recvAlways[fn]; ok {
		return m
	}
	a.recvAlways[fn] = nil // a recursive call adds nothing
	rets := returns(fn)
	m := map[string]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if !dominatesAll(instr, rets) {
				continue
			}
			for _, c := range receivedLocs(instr) {
				if c != "" { // a local channel: no location to match
					m[c] = true
				}
			}
			if call, ok := instr.(*ssa.Call); ok {
				for c := range a.alwaysReceives(call.Call.StaticCallee(), depth+1) {
					m[c] = true
				}
			}
		}
	}
	a.recvAlways[fn] = m
	return m
}

// waitsUnlessNil reports whether every way to at passes the wait instr
// on loc, except ways where a check found loc nil:
// `if s.wg != nil { s.wg.Wait() }` (or `if s.done != nil { <-s.done }`)
// skips the wait only when there is no WaitGroup or channel, so no
// goroutine started with one, to wait for.
func waitsUnlessNil(wait ssa.Instruction, loc string, at ssa.Instruction) bool {
	for b := wait.Block().Idom(); b != nil; b = b.Idom() {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		nonNil, isNil, ok := nilCheckOf(iff, loc)
		if ok && nonNil.Dominates(wait.Block()) && dominates(iff, at) {
			return covered(iff, []ssa.Instruction{at}, map[ssa.Instruction]bool{wait: true}, map[*ssa.BasicBlock]bool{isNil: true})
		}
	}
	return false
}

// nilCheckOf is iff's successors when it tests a value loaded from loc
// against nil: the one taken when it is not nil, and the one when it is.
func nilCheckOf(iff *ssa.If, loc string) (nonNil, isNil *ssa.BasicBlock, ok bool) {
	cmp, isCmp := iff.Cond.(*ssa.BinOp)
	if !isCmp || cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return nil, nil, false
	}
	v := cmp.X
	if k, isConst := cmp.X.(*ssa.Const); isConst && k.IsNil() {
		v = cmp.Y
	} else if k, isConst := cmp.Y.(*ssa.Const); !isConst || !k.IsNil() {
		return nil, nil, false
	}
	load, isLoad := v.(*ssa.UnOp)
	if !isLoad || load.Op != token.MUL || heldAt(load.X) != loc && chanLocation(v) != loc {
		return nil, nil, false
	}
	succs := iff.Block().Succs
	if cmp.Op == token.NEQ {
		return succs[0], succs[1], true
	}
	return succs[1], succs[0], true
}

// joinedSibling reports whether x's root was waited for by the root that
// started it before that root started y's (or an ancestor of y's): a
// recovery that starts a worker per channel and waits for them all
// (wg.Wait) before it starts the loops that use what they built. What
// the workers did happens before their Done, the Wait before the next
// go statement.
func (a *run) joinedSibling(x, y site) bool {
	p := x.root.parent
	if p == nil {
		return false
	}
	for c := y.root; c != nil; c = c.parent {
		if c.parent != p {
			continue
		}
		if c == x.root {
			return false
		}
		// x's root is started first, and not again after c's start.
		nc, nx, ok := diverge(p, c.siteFn, c.site, x.root.siteFn, x.root.site)
		return ok && reaches(nx, nc) && !reaches(nc, nx) && a.after(p, c.siteFn, c.site, x.root)
	}
	return false
}

// storedAt is the field a *sync.WaitGroup held in a local variable is
// also stored into by the function that holds it, as the field's
// location: Wait on the WaitGroup a function handed its workers in a
// context struct (ctx := &recoveryCtx{wg: wg}; go work(ctx); wg.Wait())
// waits on what their ctx.wg.Done() signals. "" if it is stored into no
// field.
func storedAt(v ssa.Value) string {
	refs := v.Referrers()
	if refs == nil {
		return ""
	}
	for _, ref := range *refs {
		if st, ok := ref.(*ssa.Store); ok && st.Val == v {
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				return fieldAddrKey(fa)
			}
		}
	}
	return ""
}
