package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// detachedUnder is the locks an access is as good as holding because
// its object was taken out of shared state under them: loaded from a
// field that the same critical section then overwrote, and handed
// nowhere since (a swap: `m := s.m; s.m = nil` under s.mu, then m
// ranged over with the lock released; statsd's flushMetrics).
//
// Every access of the old object through the field, by a goroutine that
// reaches it under the lock and uses it while still holding it, comes
// before the swap; after it, the field holds another object. So the
// access races only with those that do not hold the lock, as if it held
// it itself. nil where the access's object is not such a value, or the
// access can run before the swap.
func (a *run) detachedUnder(fn *ssa.Function, c *context, acc *access) lockSet {
	ld, ok := acc.base.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok || handedOn(ld) {
		return nil
	}
	bl := a.bodyLocksOf(fn)
	var out lockSet
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || st.Val == ssa.Value(ld) || !sameField(st.Addr, fa) || !dominates(ld, st) || !dominates(st, acc.instr) {
				continue
			}
			for k := range bl.held(ld, c.entry) {
				if heldThrough(bl, c.entry, k, ld, st) {
					if out == nil {
						out = lockSet{}
					}
					out[k] = true
				}
			}
		}
	}
	return out
}

// sameField reports whether addr is the address of fa's field of the
// same struct: the same pointer value, or the same field of it
// (shard.counts through an embedded struct, each step its own FieldAddr).
func sameField(addr ssa.Value, fa *ssa.FieldAddr) bool {
	other, ok := addr.(*ssa.FieldAddr)
	return addr == ssa.Value(fa) || ok && other.Field == fa.Field && samePointer(other.X, fa.X, 4)
}

func samePointer(x, y ssa.Value, depth int) bool {
	if x == y {
		return true
	}
	fx, okx := x.(*ssa.FieldAddr)
	fy, oky := y.(*ssa.FieldAddr)
	return depth > 0 && okx && oky && fx.Field == fy.Field && samePointer(fx.X, fy.X, depth-1)
}

// handedOn reports whether v, or what it is converted to or merged
// into, is stored, sent, captured, started with, or returned: then
// another goroutine may reach it again, and it is not detached.
func handedOn(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ref := range *v.Referrers() {
			switch x := ref.(type) {
			case *ssa.Store:
				if x.Val == v {
					return true
				}
			case *ssa.Send:
				if x.X == v {
					return true
				}
			case *ssa.MapUpdate:
				if x.Value == v || x.Key == v {
					return true
				}
			case *ssa.MakeClosure, *ssa.Go, *ssa.Return, *ssa.Defer:
				return true
			case *ssa.ChangeType, *ssa.MakeInterface, *ssa.Phi:
				if w := x.(ssa.Value); !seen[w] {
					seen[w] = true
					work = append(work, w)
				}
			}
		}
	}
	return false
}

// heldThrough reports whether lock k is held at every instruction on
// every path from from to to (both in one function, from dominating to)
// that does not pass from again: the load and the store are one
// critical section.
func heldThrough(bl *bodyLocks, entry lockSet, k string, from, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	fi, ti := index(from), index(to)
	for _, b := range between(fb, tb) {
		for i, instr := range b.Instrs {
			if b == fb && i < fi || b == tb && i > ti {
				continue
			}
			if !bl.held(instr, entry)[k] {
				return false
			}
		}
	}
	return true
}

// between is the blocks on paths from fb to tb that do not pass fb
// again, fb and tb included.
func between(fb, tb *ssa.BasicBlock) []*ssa.BasicBlock {
	if fb == tb {
		return []*ssa.BasicBlock{fb}
	}
	fwd := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{fb}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s != fb && !fwd[s] {
				fwd[s] = true
				work = append(work, s)
			}
		}
	}
	out := []*ssa.BasicBlock{fb}
	back := map[*ssa.BasicBlock]bool{tb: true}
	work = []*ssa.BasicBlock{tb}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b != fb && fwd[b] {
			out = append(out, b)
		}
		for _, p := range b.Preds {
			if p != fb && !back[p] {
				back[p] = true
				work = append(work, p)
			}
		}
	}
	return out
}
