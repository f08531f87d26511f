package races

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"
)

// Code that cannot run.
//
// A branch on a constant takes one way only: `if debugEncoder { ... }`,
// with debugEncoder a false constant, is dead code the compiler drops,
// but the SSA form keeps it (klauspost/compress guards its self-checks
// so, and they reach state its workers share). Its calls, go statements
// and accesses are not followed.

// liveBlocks is the blocks of fn that can run, by index: those reached
// from its entry (or its recover block) where an If on a constant
// follows only the way the constant takes. Worked out once.
func (a *run) liveBlocks(fn *ssa.Function) blockSet {
	if live, ok := a.live[fn]; ok {
		return live
	}
	live := newBlockSet(fn)
	var work []*ssa.BasicBlock
	if len(fn.Blocks) > 0 {
		work = append(work, fn.Blocks[0])
	}
	if fn.Recover != nil {
		work = append(work, fn.Recover)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if !live.add(b) {
			continue
		}
		work = append(work, liveSuccs(b)...)
	}
	a.live[fn] = live
	return live
}

// liveSuccs is the successors of b control can go to: one of an If's two
// when its condition is a constant.
func liveSuccs(b *ssa.BasicBlock) []*ssa.BasicBlock {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return b.Succs
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return b.Succs
	}
	c, ok := cond.Cond.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return b.Succs
	}
	if constant.BoolVal(c.Value) {
		return b.Succs[:1]
	}
	return b.Succs[1:]
}

// canRun reports whether b, a block of fn, can run (liveBlocks).
func (a *run) canRun(b *ssa.BasicBlock) bool {
	return a.liveBlocks(b.Parent()).has(b)
}

// has reports whether b is in s.
func (s blockSet) has(b *ssa.BasicBlock) bool {
	return s[b.Index/64]&(uint64(1)<<(b.Index%64)) != 0
}
