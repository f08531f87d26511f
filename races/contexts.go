package races

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Contexts: the ways a root reaches a function, kept apart by the locks
// held, and joined when a function has too many.

// context is one way a root reaches a function: the locks held when it
// is entered, and which parameters point into objects the root's own
// code allocated. A function reached holding different locks is
// analysed once for each set (up to maxContexts), so that a lock one
// caller holds is not lost to the intersection with another caller's;
// calls holding the same locks share a context, which keeps of their
// arguments' ownership what they all agree on. (Splitting contexts by
// ownership as well spent the few contexts a function has on it and
// lost locks: the lock sets are what a finding rests on.)
type context struct {
	entry lockSet
	// pseudo: entry holds a closed flag's pseudo lock (closedflag.go).
	pseudo  bool
	origins []ownership
	// params is, for each parameter, what the calls into this context
	// pass it (objects.go); nil where no better than the points-to
	// analysis.
	params []objSet
	// fn is the function, from the context of the call that first
	// entered it: the call path a finding shows, whose locks are this
	// context's.
	fn   *ssa.Function
	from *context
	// way is the way in the context was made from, while it keeps that
	// way's content (nil once another joins it): its memo is the way's
	// (contentmemo.go).
	way *wayIn
}

// entry is what one call brings into a function: the locks held, which
// arguments are own, and what they point into.
type entry struct {
	held lockSet
	// pseudo: held holds a closed flag's pseudo lock (closedflag.go).
	pseudo  bool
	origins []ownership
	params  []objSet
	from    *context // the caller's context; nil where a root starts
	way     *wayIn   // the memoised way in it comes from, if any
}

// maxContexts bounds the contexts of one function in one root; past it,
// two of them, or one and a new way in, become one (nearest).
const maxContexts = 4

// sameContext is the context of cs a way in joins with no loss of locks:
// one holding the same, or the same but for closed flags' pseudo locks,
// which make no context of their own (those both hold stay); -1 if none.
// exact: it holds the same.
func sameContext(cs []*context, in entry) (i int, exact bool) {
	for i, c := range cs {
		if c.entry.equal(in.held) {
			return i, true
		}
	}
	for i, c := range cs {
		if (in.pseudo || c.pseudo) && sameLocks(c.entry, in.held) {
			return i, false
		}
	}
	return -1, false
}

// nearest is, once a function's contexts are full and a way in holding
// held comes that none holds exactly, the two that become one: (i, -1)
// where the way in joins context i, (i, j) where context j joins i and
// the way in takes j's place. A context whose locks the way in all holds
// takes it with no loss; otherwise the pair that loses the fewest locks
// (those one holds and the other not), the way in first of equals, then
// the first contexts. Joining the last context, whatever it held, let a
// way in holding nothing in common with it empty a set other ways in
// shared: etcd's reads under the read transaction's lock, reached from
// main along more ways than maxContexts, lost that lock to a way in
// holding another. A way in, once in a context, stays in one whose
// locks it holds: contexts only lose locks, so the walk ends.
func nearest(cs []*context, held lockSet, pseudo bool) (int, int) {
	for _, c := range cs {
		pseudo = pseudo || c.pseudo
	}
	shared, size := shared, func(s lockSet) int { return len(s) }
	if pseudo {
		shared, size = realShared, realLen // pseudo locks choose no context
	}
	bi, bj, best := 0, -1, -1
	for i, c := range cs {
		if shared(c.entry, held) == size(c.entry) {
			return i, -1
		}
		if l := size(c.entry) + size(held) - 2*shared(c.entry, held); best < 0 || l < best {
			bi, bj, best = i, -1, l
		}
	}
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			x, y := cs[i].entry, cs[j].entry
			if l := size(x) + size(y) - 2*shared(x, y); l < best {
				bi, bj, best = i, j, l
			}
		}
	}
	return bi, bj
}

// shared is how many locks s and t both hold.
func shared(s, t lockSet) int {
	n := 0
	for k := range s {
		if t[k] {
			n++
		}
	}
	return n
}

// realShared and realLen are shared and len counting locks alone, not
// closed flags' pseudo locks (closedflag.go), which choose no context.
func realShared(s, t lockSet) int {
	n := 0
	for k := range s {
		if t[k] && !strings.ContainsRune(k, '|') {
			n++
		}
	}
	return n
}

func realLen(s lockSet) int {
	n := 0
	for k := range s {
		if !strings.ContainsRune(k, '|') {
			n++
		}
	}
	return n
}

// absorb joins a way in (or another context) holding held, with origins
// and params, to c: c keeps the locks both hold, the ownership both
// agree on, the objects either passes. It reports whether c changed.
func absorb(c *context, held lockSet, origins []ownership, params []objSet) (changed bool) {
	defer func() {
		if changed {
			c.way = nil // no longer the content of the way it came from
		}
	}()
	changed = meetOrigins(c.origins, origins)
	if next := validFlags(intersect(c.entry, held)); !next.equal(c.entry) {
		c.entry, c.pseudo, changed = next, hasPseudo(next), true
	}
	if next, grew := joinParams(c.params, params); grew {
		c.params, changed = next, true
	}
	return changed
}
