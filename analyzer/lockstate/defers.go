package lockstate

// Deferred calls: each runs at the returns reached after its defer
// statement, last registered first, so its effect on the locks and the
// state it is checked in are those at the returns, not at the defer.

import (
	"cmp"
	"go/ast"
	"slices"

	"golang.org/x/tools/go/cfg"
)

// deferInfo is a deferred call: how it changes the lock state, and how to
// record it against the state at return. block and node locate its defer
// statement in the control-flow graph.
type deferInfo struct {
	call    *ast.CallExpr
	atDefer *State
	effect  func(*State)
	replay  func(*State, *Func)
	block   int32
	node    int
}

// addDefer registers a deferred call (final pass only records).
func (fa *funcAnalysis) addDefer(call *ast.CallExpr, s *State, effect func(*State), replay func(*State, *Func)) {
	s.addDefer(call)
	if fa.final && fa.rec != nil {
		fa.pending = append(fa.pending, &deferInfo{call: call, atDefer: s.clone(), effect: effect, replay: replay, block: fa.atBlock, node: fa.atNode})
	}
}

// replayDefers records each deferred call against the state at the returns
// it runs at, after the deferred calls registered later on the same paths
// (which run first). Each return runs only the defers registered on its
// own paths: a defer in one switch case does not run at another case's
// return. A defer registered on some paths to a return only (inside an if,
// or inside a loop) runs there too, with the locks as they are on the
// paths from the defer statement to that return (see exitsAfter): defer
// f.Close() inside a loop that unlocks before its next iteration runs after
// the loop's unlocks.
func (fa *funcAnalysis) replayDefers(g *cfg.CFG) {
	// Registered in the order of the defer statements on a path, which is
	// their order in the source (the final pass visits blocks in the
	// graph's order: the blocks of an if inside a loop come after the
	// loop's exit).
	slices.SortStableFunc(fa.pending, func(a, b *deferInfo) int { return cmp.Compare(a.call.Pos(), b.call.Pos()) })
	for i, d := range fa.pending {
		exits := fa.exitStates
		if fa.someExitsOnly(d) {
			exits = fa.exitsAfter(g, d)
		}
		var st *State
		for _, ex := range exits {
			if _, ok := ex.defers[d.call]; !ok {
				continue
			}
			at := ex.clone()
			at.clearDefers()
			for _, later := range fa.pending[i+1:] {
				every, ok := ex.defers[later.call]
				switch {
				case ok && every:
					later.effect(at)
				case ok: // registered on some paths to this return only
					ran := at.clone()
					later.effect(ran)
					at = join(at, ran)
				}
			}
			st = join(st, at)
		}
		if st == nil {
			st = d.atDefer.clone() // no return reached: the defer statement's state is the best we know
			st.clearDefers()
		}
		d.replay(st, fa.rec)
	}
}

// someExitsOnly reports whether a return is reached both on paths that
// registered d and on paths that did not: the state there joins both.
func (fa *funcAnalysis) someExitsOnly(d *deferInfo) bool {
	return slices.ContainsFunc(fa.exitStates, func(ex *State) bool {
		every, ok := ex.defers[d.call]
		return ok && !every
	})
}

// exitsAfter runs the dataflow again from just after d's defer statement,
// in the state there, without recording anything, and returns the states
// at the returns it reaches: the states of the paths on which d runs.
func (fa *funcAnalysis) exitsAfter(g *cfg.CFG, d *deferInfo) []*State {
	var exits []*State
	final, rec, onExit := fa.final, fa.rec, fa.onExit
	fa.final, fa.rec = false, nil
	fa.onExit = func(s *State) {
		if len(s.defers) > 0 {
			exits = append(exits, s.clone())
		}
	}
	defer func() { fa.final, fa.rec, fa.onExit = final, rec, onExit }()
	w := newWorklist(g)
	start := g.Blocks[d.block]
	w.flow(start, fa.transferFrom(start, d.node+1, d.atDefer.clone()))
	w.run(g, fa.transfer)
	return exits
}
