package races

import (
	"hash/maphash"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// What a context of a function leads to (the ways into its callees; the
// sites of its accesses) is the same for every root that reaches the
// function with the same locks held, the same ownership of its
// parameters and the same objects passed: only the roots a context
// starts, and the call path it is on, belong to its root. A program's
// roots share most of what they call (nats-server reaches a function
// with equal contexts from eight roots on average), so each content is
// worked out once per walk: the owned fields a walk assumes change the
// ways in, and report reads the last walk's.

// contentMemo is one content of a function's contexts and what it leads
// to, each worked out when first asked for.
type contentMemo struct {
	entry   lockSet
	origins []ownership
	params  []objSet
	// ways is, for each call of the function (in callsOf's order), the
	// functions it enters and what it brings in, from left unset.
	ways [][]wayIn
	// reads is the owned fields working out ways read (ownedreads.go).
	reads fieldSet
	// facts is, for each access (in accessesOf's order), what the sites
	// of this content know of it (report.go).
	facts []accessFacts
}

// memoKey finds a function's contents by a hash of what they hold.
type memoKey struct {
	fn   *ssa.Function
	hash uint64
}

// wayIn is one function a call enters, and what the call brings in.
type wayIn struct {
	callee *ssa.Function
	in     entry
	memo   *contentMemo // the callee's memo for this content, once looked up
}

// memoOf is the memo of c's content, made (empty) where this walk has
// not met that content in fn before.
func (a *run) memoOf(fn *ssa.Function, c *context) *contentMemo {
	if w := c.way; w != nil {
		// Made from a way in and unchanged since: the way's content, so
		// the way's memo (looked up once).
		if w.memo == nil {
			w.memo = a.findMemo(fn, c)
		}
		return w.memo
	}
	return a.findMemo(fn, c)
}

// findMemo is memoOf, looked up by c's content.
func (a *run) findMemo(fn *ssa.Function, c *context) *contentMemo {
	k := memoKey{fn, a.contentHash(c)}
	for _, m := range a.memos[k] {
		if sameContent(m, c) {
			return m
		}
	}
	// The origins are copied: meetOrigins changes a context's in place
	// when another way in joins it. Lock sets and object sets are never
	// changed in place.
	m := &contentMemo{entry: c.entry, origins: slices.Clone(c.origins), params: c.params}
	a.memos[k] = append(a.memos[k], m)
	return m
}

// waysIn is, for each call of fn, the functions it enters from context
// c and what each brings in.
func (a *run) waysIn(fn *ssa.Function, c *context, calls []callSite) [][]wayIn {
	m := a.memoOf(fn, c)
	if m.ways != nil {
		a.ownedReads = a.ownedReads.with(m.reads) // read to work them out
		return m.ways
	}
	bl := a.bodyLocksOf(fn)
	out := make([][]wayIn, len(calls))
	m.reads = a.recording(func() {
		for i, cs := range calls {
			if cs.spawns && !cs.entered {
				continue // a go statement: started, not entered
			}
			held := bl.held(cs.instr, c.entry)
			pseudo := len(a.flags) > 0 && hasPseudo(held)
			for _, callee := range a.targets(fn, c, cs) {
				h, p := a.flagsInto(callee, held, pseudo)
				out[i] = append(out[i], wayIn{callee: callee, in: entry{held: h, pseudo: p, origins: a.argOrigins(fn, c, cs.site, callee), params: a.argObjects(fn, c, cs.site, callee)}})
			}
			for _, sub := range cs.callbacks {
				h, p := a.flagsInto(sub, held, pseudo)
				out[i] = append(out[i], wayIn{callee: sub, in: entry{held: h, pseudo: p}})
			}
		}
	})
	m.ways = out
	return out
}

// contentHash is a hash of c's content that sameContent's equal
// contents share: each part summed, so the order of a set's members
// does not matter, and a parameter with no ownership or no objects
// counts as one not there.
func (a *run) contentHash(c *context) uint64 {
	var h uint64
	for k := range c.entry {
		h += maphash.String(a.seed, k)
	}
	h = mix(h)
	for i, o := range c.origins {
		if o != notOwn {
			h += mix(uint64(i)<<8 | uint64(o) | 1<<40)
		}
	}
	for i, set := range c.params {
		if len(set) == 0 {
			continue
		}
		var s uint64
		for o := range set {
			s += mix(uint64(o))
		}
		h += mix(s ^ uint64(i)<<48)
	}
	return h
}

// mix is splitmix64's finaliser: it spreads each bit of x over all of
// the result.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// sameContent reports whether c has m's content: the same locks held,
// ownership of each parameter and objects passed to each.
func sameContent(m *contentMemo, c *context) bool {
	if !m.entry.equal(c.entry) {
		return false
	}
	for i := range max(len(m.origins), len(c.origins)) {
		if originAt(m.origins, i) != originAt(c.origins, i) {
			return false
		}
	}
	for i := range max(len(m.params), len(c.params)) {
		x, y := paramAt(m.params, i), paramAt(c.params, i)
		if len(x) != len(y) || len(x) > 0 && !sameMap(x, y) && !maps.Equal(x, y) {
			return false
		}
	}
	return true
}

// paramAt is what params says of parameter i, nil where it says nothing.
func paramAt(params []objSet, i int) objSet {
	if i < len(params) {
		return params[i]
	}
	return nil
}
