package corpus

import "testing"

func TestCompare(t *testing.T) {
	got := []Diag{
		{"s", "f.go:1:1", "guardedby", "reworded message"},
		{"s", "f.go:2:1", "guardedby", "new"},
		{"s", "f.go:3:1", "guardedby", "m2"}, // two at one key
		{"s", "f.go:3:1", "guardedby", "m1"},
		{"s", "f.go:4:1", "escape", "same position, other rule"},
	}
	want := []*Entry{
		{Set: "s", Pos: "f.go:1:1", Rule: "guardedby", Verdict: True, Message: "old message"},
		{Set: "s", Pos: "f.go:3:1", Rule: "guardedby", Verdict: True, Message: "m1"},
		{Set: "s", Pos: "f.go:3:1", Rule: "guardedby", Verdict: Benign, Message: "m2"},
		{Set: "s", Pos: "f.go:4:1", Rule: "guardedby", Verdict: True},
		{Set: "s", Pos: "f.go:5:1", Rule: "guardedby", Verdict: True, Message: "gone"},
	}
	c := Compare(got, want)
	if len(c.Matched) != 3 {
		t.Errorf("matched %d, want 3: %+v", len(c.Matched), c.Matched)
	}
	for _, m := range c.Matched {
		if m.Diag.Pos == "f.go:3:1" && m.Diag.Message != m.Entry.Message {
			t.Errorf("same key: %q paired with the entry for %q; pair equal messages first", m.Diag.Message, m.Entry.Message)
		}
	}
	if len(c.Unexpected) != 2 || c.Unexpected[0].Pos != "f.go:2:1" || c.Unexpected[1].Rule != "escape" {
		t.Errorf("unexpected = %+v, want f.go:2:1 and the escape at f.go:4:1", c.Unexpected)
	}
	if len(c.Missing) != 2 || c.Missing[0].Pos != "f.go:4:1" || c.Missing[1].Pos != "f.go:5:1" {
		t.Errorf("missing = %+v, want the guardedby entries at f.go:4:1 and f.go:5:1", c.Missing)
	}
}

func TestUpdate(t *testing.T) {
	keep := &Entry{Set: "a", Pos: "f.go:1:1", Rule: "r", Verdict: True, Reason: "why", Message: "old"}
	gone := &Entry{Set: "a", Pos: "f.go:2:1", Rule: "r", Verdict: True, Reason: "why"}
	other := &Entry{Set: "b", Pos: "g.go:1:1", Rule: "r", Verdict: Benign, Reason: "not run"}
	x := &Expected{Entries: []*Entry{keep, gone, other}}
	got := []Diag{{"a", "f.go:1:1", "r", "new wording"}, {"a", "f.go:3:1", "r", "fresh"}}
	Update(x, map[string]Comparison{"a": Compare(got, EntriesOf(x.Entries, "a"))})
	byPos := map[string]*Entry{}
	for _, e := range x.Entries {
		byPos[e.Pos] = e
	}
	if len(x.Entries) != 3 || byPos["f.go:2:1"] != nil {
		t.Errorf("entries after update: %d, f.go:2:1 kept: %v", len(x.Entries), byPos["f.go:2:1"] != nil)
	}
	if e := byPos["f.go:1:1"]; e != keep || e.Verdict != True || e.Reason != "why" || e.Message != "new wording" {
		t.Errorf("kept entry = %+v, want verdict and reason kept, message refreshed", e)
	}
	if e := byPos["f.go:3:1"]; e == nil || e.Verdict != Untriaged || e.Reason != "fresh" || e.Set != "a" {
		t.Errorf("new entry = %+v, want untriaged with the message as reason", e)
	}
	if byPos["g.go:1:1"] != other {
		t.Errorf("the entry of a set that did not run was touched")
	}
}
