package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Which instruction makes a value's object anew.
//
// A use of an object that ran before an instruction published that
// object only if the instruction, when it runs, sees the same object:
// an allocation in a loop makes a new one each time round, so a chunk a
// parser stores into its packet at the end of one round is not the chunk
// the next round fills in. published asks, for each use, whether it
// runs before the instruction on the same object: on some way from the
// use to the instruction that does not make the object again.
//
// A value is made anew where its object is: an allocation, a call that
// returns a new object each time, a receive that takes one; a
// conversion, or an interface holding it, where what it converts is.
// A phi choosing among such objects (`var c chunk; switch t { case 1: c
// = &data{}; case 2: c = &ack{} }`) is made anew where the phi runs,
// when each way into it makes its object again after every earlier run
// of the phi: every way from the phi back to the block a value comes in
// from runs that value's maker. Then a later run of the phi brings a
// new object, whichever way it comes; the way from the use to the
// instruction must not run the phi again.

// renewedAt is the instruction each run of which gives v a new object,
// nil if none does.
func (a *run) renewedAt(v ssa.Value) ssa.Instruction {
	if d, ok := a.renewMemo[v]; ok {
		return d
	}
	a.renewMemo[v] = nil // a cycle through phis: no maker
	d := a.findRenewal(v)
	a.renewMemo[v] = d
	return d
}

func (a *run) findRenewal(v ssa.Value) ssa.Instruction {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x
	case *ssa.Call, *ssa.Extract:
		if alloc, ok := a.passedBack(v).(*ssa.Alloc); ok {
			return alloc // the allocation handed back
		}
		if a.freshValue(v) {
			return v.(ssa.Instruction) // a new object each time the call runs
		}
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return x // a receive in a loop takes an object afresh each time round
		}
	case *ssa.MakeInterface:
		return a.renewedAt(x.X)
	case *ssa.ChangeType:
		return a.renewedAt(x.X)
	case *ssa.ChangeInterface:
		return a.renewedAt(x.X)
	case *ssa.TypeAssert:
		if !x.CommaOk {
			return a.renewedAt(x.X)
		}
	case *ssa.Phi:
		if a.phiRenews(x) {
			return x
		}
	}
	return nil
}

// phiRenews reports whether every way into phi brings an object made
// again after the phi's last run: each value's maker lies on every way
// from the phi's block to the block the value comes in from.
func (a *run) phiRenews(phi *ssa.Phi) bool {
	b := phi.Block()
	for k, e := range phi.Edges {
		d := a.renewedAt(e)
		if d == nil || d.Block() == b {
			return false
		}
		if reachesAround(b, b.Preds[k], d.Block()) {
			return false
		}
	}
	return true
}
