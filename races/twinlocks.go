package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// twinLocks is flagLocks for a branch on a boolean field (fieldFlag, or
// its negation) whose one way calls a function with no lock taken and
// the other way calls the same function holding locks it takes just
// before
// (miniredis's withTx: if ctx.nested { cb(c, ctx); return }; m.Lock();
// cb(c, ctx); m.Unlock(), where nested says the call comes from a
// script that EVAL already runs under m's lock). The code says, by
// calling the one function both ways, that the flag stands for holding
// the locks: on the unlocked way they are taken as held. The locks it
// takes and the successor of that way; nil if the branch is not that
// shape.
func (env lockEnv) twinLocks(br *ssa.If) ([]string, int) {
	if t, ok := env.twins[br]; ok {
		return t.keys, t.way
	}
	keys, way := env.findTwin(br)
	if env.twins != nil {
		env.twins[br] = twin{keys, way}
	}
	return keys, way
}

// twin is a branch's twinLocks, worked out once.
type twin struct {
	keys []string
	way  int
}

// findTwin computes twinLocks.
func (env lockEnv) findTwin(br *ssa.If) ([]string, int) {
	b := br.Block()
	if b.Succs[0] == b.Succs[1] {
		return nil, 0
	}
	for way := 0; way < 2; way++ {
		bare, locked := b.Succs[way], b.Succs[1-way]
		if len(bare.Preds) != 1 || len(locked.Preds) != 1 {
			continue
		}
		callees := unlockedCalls(bare)
		if len(callees) == 0 {
			continue
		}
		if keys := lockedTwin(locked, callees); len(keys) > 0 {
			for i, k := range keys {
				keys[i] = env.canon.of(k)
			}
			return keys, way
		}
	}
	return nil, 0
}

// fieldFlag reports whether cond is a boolean field's value.
func fieldFlag(cond ssa.Value) bool {
	load, ok := cond.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || !isBool(load.Type()) {
		return false
	}
	_, isField := load.X.(*ssa.FieldAddr)
	return isField
}

// calleeID names what a call calls: the function of a static call, the
// method and receiver of an interface call, the function value of a
// dynamic one (a callback parameter).
type calleeID struct {
	fn     *ssa.Function
	value  ssa.Value
	method *types.Func
}

func callee(c *ssa.CallCommon) calleeID {
	if fn := c.StaticCallee(); fn != nil {
		return calleeID{fn: fn}
	}
	return calleeID{value: c.Value, method: c.Method}
}

// unlockedCalls is what the calls of the blocks start dominates call,
// if none of them takes or releases a lock (nil otherwise).
func unlockedCalls(start *ssa.BasicBlock) map[calleeID]bool {
	out := map[calleeID]bool{}
	for _, b := range start.Parent().Blocks {
		if !start.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if _, isLock := asLockOp(call); isLock {
				return nil
			}
			out[callee(call.Common())] = true
		}
	}
	return out
}

// lockedTwin is the locks held at a call of one of callees, in the
// blocks start dominates, taken earlier in the call's own block and not
// released before it.
func lockedTwin(start *ssa.BasicBlock, callees map[calleeID]bool) []string {
	for _, b := range start.Parent().Blocks {
		if !start.Dominates(b) {
			continue
		}
		var taken []string
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op, isLock := asLockOp(call); isLock {
				if op.acquire {
					taken = append(taken, op.key)
				} else {
					taken = nil
				}
				continue
			}
			if len(taken) > 0 && callees[callee(call.Common())] {
				return taken
			}
		}
	}
	return nil
}
