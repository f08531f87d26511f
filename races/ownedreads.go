package races

// The walks that settle the owned fields (ownership.go, walkOwned) differ
// only in the fields they take as owned, and most of what one walk works
// out (contentmemo.go) reads none of the fields the next one drops: on
// nats-server the second walk keeps three memos in four, the third
// nearly all. Each memo keeps the owned fields it read, through its own
// work and through the memos it used, and the next walk keeps every memo
// that read none of the fields whose standing changed.

// fieldSet is a set of fields by fieldKey.
type fieldSet map[string]bool

// with is s with the fields of t added; nil stays nil (no one is
// recording).
func (s fieldSet) with(t fieldSet) fieldSet {
	if s == nil {
		return nil
	}
	for k := range t {
		s[k] = true
	}
	return s
}

// isOwned reports whether field k is taken as owned in this walk, and
// records that the work in progress read it.
func (a *run) isOwned(k string) bool {
	if a.ownedReads != nil {
		a.ownedReads[k] = true
	}
	return a.owned[k]
}

// recording runs work with a record of the owned fields it reads, and
// returns the record; the reads count for the work around it too.
func (a *run) recording(work func()) fieldSet {
	outer := a.ownedReads
	a.ownedReads = fieldSet{}
	work()
	reads := a.ownedReads
	a.ownedReads = outer.with(reads)
	return reads
}

// keepMemos starts a walk that takes a.owned as the owned fields: it
// keeps what the last walk worked out where that read no field whose
// standing changed, and nothing on the first walk.
func (a *run) keepMemos() {
	changed := fieldSet{}
	for k := range a.memoOwned {
		if !a.owned[k] {
			changed[k] = true
		}
	}
	for k := range a.owned {
		if !a.memoOwned[k] {
			changed[k] = true
		}
	}
	first := a.memos == nil
	a.memoOwned = a.owned
	if first {
		a.memos, a.returnOwn = map[memoKey][]*contentMemo{}, map[returnKey]resultOwnership{}
		return
	}
	for k, ms := range a.memos {
		kept := ms[:0]
		for _, m := range ms {
			if m.ways != nil && !intersects(m.reads, changed) {
				kept = append(kept, m)
			}
		}
		if len(kept) == 0 {
			delete(a.memos, k)
		} else {
			a.memos[k] = kept
		}
	}
	for _, ms := range a.memos {
		for _, m := range ms {
			for _, ways := range m.ways {
				for i := range ways {
					ways[i].memo = nil // the callee's memo may be gone
				}
			}
		}
	}
	for k, r := range a.returnOwn {
		if intersects(r.reads, changed) {
			delete(a.returnOwn, k)
		}
	}
}
