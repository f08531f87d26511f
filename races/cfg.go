package races

import "golang.org/x/tools/go/ssa"

// Reachability within one function's blocks: whether one instruction can
// run after another in a call of their function, with or without running
// a third in between.

// inLoop reports whether instr's block can reach itself: the
// instruction may run many times in one call of its function.
func inLoop(instr ssa.Instruction) bool {
	return blockReaches(instr.Block(), instr.Block())
}

// reaches reports whether, in one call of a function, to can run after
// from: to follows from in its block, or its block is reachable from
// from's.
func reaches(from, to ssa.Instruction) bool {
	if from.Block() == to.Block() && index(from) < index(to) {
		return true
	}
	return blockReaches(from.Block(), to.Block())
}

// blockReaches reports whether a path of one or more edges leads from
// block from to block to.
func blockReaches(from, to *ssa.BasicBlock) bool {
	seen := newBlockSet(from.Parent())
	work := append(make([]*ssa.BasicBlock, 0, 16), from.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == to {
			return true
		}
		if !seen.add(x) {
			continue
		}
		work = append(work, x.Succs...)
	}
	return false
}

// blockSet is a set of one function's blocks, by index: the many walks
// over a function's blocks each cost one small allocation.
type blockSet []uint64

func newBlockSet(fn *ssa.Function) blockSet {
	return make(blockSet, (len(fn.Blocks)+63)/64)
}

// add adds b and reports whether it was not there yet.
func (s blockSet) add(b *ssa.BasicBlock) bool {
	w, bit := b.Index/64, uint64(1)<<(b.Index%64)
	if s[w]&bit != 0 {
		return false
	}
	s[w] |= bit
	return true
}

func index(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

// reachesSame reports whether, in one call of a function, to can run
// after from with the same allocation alloc made (an allocation, or a
// call that returns a fresh object): some path leads from from to to
// without running alloc again (an allocation in a loop makes
// a new object each time round: what the last one published is not the
// object a later access touches).
func reachesSame(from, to, alloc ssa.Instruction) bool {
	ab, ai := alloc.Block(), index(alloc)
	if from.Block() == to.Block() && index(from) < index(to) && !(ab == from.Block() && index(from) < ai && ai < index(to)) {
		return true
	}
	if ab == from.Block() && index(from) < ai {
		return false // every way on from from runs alloc first
	}
	seen := newBlockSet(from.Parent())
	work := append(make([]*ssa.BasicBlock, 0, 16), from.Block().Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if !seen.add(b) {
			continue
		}
		if b == to.Block() && (b != ab || index(to) < ai) {
			return true
		}
		if b == ab {
			continue // alloc runs again on this way
		}
		work = append(work, b.Succs...)
	}
	return false
}

// reachesAround reports whether some way from from's successors reaches
// to without passing through avoid or running from again.
func reachesAround(from, to, avoid *ssa.BasicBlock) bool {
	seen := newBlockSet(from.Parent())
	seen.add(from)
	work := append(make([]*ssa.BasicBlock, 0, 16), from.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == avoid || !seen.add(b) {
			continue
		}
		if b == to {
			return true
		}
		work = append(work, b.Succs...)
	}
	return false
}
