package races

import "testing"

// Reads recorded inside nested work count for the work around it; a
// memo that read a field whose standing changes is dropped at the next
// walk, one that read only fields that stand as they did is kept, and so
// is one that read none.
func TestOwnedReads(t *testing.T) {
	a := &run{owned: map[string]bool{"T.a": true, "T.b": true}}
	var inner fieldSet
	outer := a.recording(func() {
		a.isOwned("T.a")
		inner = a.recording(func() { a.isOwned("T.b") })
	})
	if !outer["T.a"] || !outer["T.b"] || len(inner) != 1 || !inner["T.b"] {
		t.Fatalf("outer read %v, inner %v: want T.a and T.b, and T.b", outer, inner)
	}
	if a.isOwned("T.c"); a.ownedReads != nil {
		t.Fatalf("reads recorded with no one recording")
	}

	a.keepMemos() // the first walk: nothing to keep
	ma := &contentMemo{ways: [][]wayIn{{}}, reads: fieldSet{"T.a": true}}
	mb := &contentMemo{ways: [][]wayIn{{}}, reads: fieldSet{"T.b": true}}
	none := &contentMemo{ways: [][]wayIn{{}}}
	a.memos[memoKey{hash: 1}] = []*contentMemo{ma, mb, none}
	a.returnOwn[returnKey{index: 1}] = resultOwnership{own: ownMade, reads: fieldSet{"T.a": true}}

	a.owned = map[string]bool{"T.b": true} // T.a is no longer owned
	a.keepMemos()
	kept := a.memos[memoKey{hash: 1}]
	if len(kept) != 2 || kept[0] != mb || kept[1] != none {
		t.Errorf("kept %d memos, want the two that did not read T.a", len(kept))
	}
	if _, ok := a.returnOwn[returnKey{index: 1}]; ok {
		t.Errorf("a result worked out from T.a was kept")
	}
}
