package races

import (
	"hash/maphash"
	"testing"
)

// Contents that read the same must share a hash and a memo, whatever
// way they spell it: a missing parameter and one with no ownership or no
// objects, a lock set built in another order, an object set that is a
// copy. Contents that differ must not share a memo.
func TestContentMemo(t *testing.T) {
	a := &run{seed: maphash.MakeSeed(), memos: map[memoKey][]*contentMemo{}}
	base := &context{
		entry:   lockSet{"T.mu": true, "U.mu": true},
		origins: []ownership{ownFresh},
		params:  []objSet{{1: true, 2: true}},
	}
	same := []*context{
		{entry: lockSet{"U.mu": true, "T.mu": true}, origins: []ownership{ownFresh, notOwn}, params: []objSet{{2: true, 1: true}, nil}},
		{entry: lockSet{"T.mu": true, "U.mu": true}, origins: []ownership{ownFresh}, params: []objSet{{1: true, 2: true}, {}}},
	}
	other := []*context{
		{entry: lockSet{"T.mu": true}, origins: []ownership{ownFresh}, params: []objSet{{1: true, 2: true}}},
		{entry: lockSet{"T.mu": true, "U.mu": true}, origins: []ownership{ownKept}, params: []objSet{{1: true, 2: true}}},
		{entry: lockSet{"T.mu": true, "U.mu": true}, origins: []ownership{ownFresh}, params: []objSet{{1: true}}},
		{entry: lockSet{"T.mu": true, "U.mu": true}, origins: []ownership{ownFresh}, params: []objSet{{1: true, 2: true}, {3: true}}},
	}
	m := a.memoOf(nil, base)
	for i, c := range same {
		if a.contentHash(c) != a.contentHash(base) {
			t.Errorf("same content %d: hash differs", i)
		}
		if got := a.memoOf(nil, c); got != m {
			t.Errorf("same content %d: a memo of its own", i)
		}
	}
	for i, c := range other {
		if sameContent(m, c) {
			t.Errorf("other content %d: taken for the same", i)
		}
		if got := a.memoOf(nil, c); got == m {
			t.Errorf("other content %d: shares the memo", i)
		}
	}
	// A context changed in place after its memo was made (another way in
	// joined it) no longer has the memo's content.
	base.origins[0] = ownKept
	if sameContent(m, base) {
		t.Errorf("memo changed with the context it was made from")
	}
}
