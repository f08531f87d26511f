package corpus

// Comparison is the outcome for one set: what was reported and expected,
// reported only, and expected only.
type Comparison struct {
	Matched    []Match
	Unexpected []Diag
	Missing    []*Entry
}

// Match pairs a reported diagnostic with its expected entry.
type Match struct {
	Diag  Diag
	Entry *Entry
}

// Compare matches reported diagnostics with expected entries by key (set,
// position, rule). Several diagnostics may share a key (two locks at one
// access): within a key, entries whose recorded message is the reported one
// are paired first, the rest in order, so a change of wording never makes
// a diagnostic unexpected.
func Compare(got []Diag, want []*Entry) Comparison {
	var c Comparison
	byKey := map[Key][]*Entry{}
	for _, e := range want {
		byKey[e.Key()] = append(byKey[e.Key()], e)
	}
	used := map[*Entry]bool{}
	paired := make([]*Entry, len(got))
	for i, d := range got { // same message first
		for _, e := range byKey[d.Key()] {
			if !used[e] && e.Message == d.Message {
				used[e], paired[i] = true, e
				break
			}
		}
	}
	for i, d := range got {
		if paired[i] == nil {
			for _, e := range byKey[d.Key()] {
				if !used[e] {
					used[e], paired[i] = true, e
					break
				}
			}
		}
		if paired[i] == nil {
			c.Unexpected = append(c.Unexpected, d)
		} else {
			c.Matched = append(c.Matched, Match{d, paired[i]})
		}
	}
	for _, e := range want {
		if !used[e] {
			c.Missing = append(c.Missing, e)
		}
	}
	return c
}

// Pending returns the entries whose verdict does not pass the gate.
func Pending(entries []*Entry) []*Entry {
	var out []*Entry
	for _, e := range entries {
		if !Triaged(e.Verdict) {
			out = append(out, e)
		}
	}
	return out
}

// Update applies the comparisons of the sets that ran to x: matched entries
// keep their verdict and reason and get the current message, missing ones
// are dropped, and unexpected diagnostics become new Untriaged entries with
// their message as the reason, a placeholder for a person to replace.
// Entries of sets that did not run are left alone.
func Update(x *Expected, ran map[string]Comparison) {
	var out []*Entry
	for _, e := range x.Entries {
		if _, ok := ran[e.Set]; !ok {
			out = append(out, e)
		}
	}
	for _, c := range ran {
		for _, m := range c.Matched {
			m.Entry.Message = m.Diag.Message
			out = append(out, m.Entry)
		}
		for _, d := range c.Unexpected {
			out = append(out, &Entry{Set: d.Set, Pos: d.Pos, Rule: d.Rule, Verdict: Untriaged, Reason: d.Message, Message: d.Message})
		}
	}
	x.Entries = out // Write sorts them
}

// EntriesOf returns the entries of one set.
func EntriesOf(entries []*Entry, set string) []*Entry {
	var out []*Entry
	for _, e := range entries {
		if e.Set == set {
			out = append(out, e)
		}
	}
	return out
}
