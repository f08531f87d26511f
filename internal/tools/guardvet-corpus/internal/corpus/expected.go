package corpus

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Verdicts. True, Benign and False pass the gate; Untriaged is what
// -update writes for a new diagnostic, until someone reads the code.
const (
	True   = "true"   // a real bug, reported as it should be
	Benign = "benign" // what the rule says is so, but harmless here (the reason says why)
	// False is a known false positive: a bug in guardvet, with the code
	// shape that causes it as the reason. Only rules that are off by
	// default (run in the sets that turn them on) may have them; their
	// pages state the precision the gate measures. A default rule's false
	// positive is fixed, not recorded.
	False     = "false"
	Untriaged = "untriaged" // nobody has looked yet: fails the gate
)

// Triaged reports whether a verdict passes the gate.
func Triaged(verdict string) bool { return verdict == True || verdict == Benign || verdict == False }

// Entry is one expected diagnostic: a line of the expected file.
//
//	set <TAB> position <TAB> rule <TAB> verdict <TAB> reason [<TAB> message]
//
// Set, position and rule are the key the gate compares. The message is
// recorded for the people reading the file; a change of wording does not
// fail the gate, and -update refreshes it.
type Entry struct {
	Set, Pos, Rule  string
	Verdict, Reason string
	Message         string
	Notes           []string // the # comment lines just above the entry
	Line            int      // in the file read; 0 for a new entry
}

// Key is what the gate compares: set, position and rule.
func (e *Entry) Key() Key { return Key{e.Set, e.Pos, e.Rule} }

// Key identifies a diagnostic for the gate.
type Key struct{ Set, Pos, Rule string }

// Expected is the expected file: a header of comments, the entries, and
// any comments after the last entry.
type Expected struct {
	Header  []string
	Entries []*Entry
	Trailer []string
}

// ParseExpected reads an expected file. Lines starting with # are
// comments: those before the first entry are the header, the others belong
// to the entry below them. Blank lines are separators.
func ParseExpected(r io.Reader) (*Expected, error) {
	x := &Expected{}
	var notes []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			if len(x.Entries) == 0 && len(notes) > 0 {
				x.Header = append(x.Header, notes...)
				x.Header = append(x.Header, "")
				notes = nil
			}
			continue
		case strings.HasPrefix(line, "#"):
			notes = append(notes, strings.TrimRight(raw, " \t\r"))
			continue
		}
		f := strings.Split(strings.TrimRight(raw, "\r"), "\t")
		if len(f) < 5 || len(f) > 6 {
			return nil, fmt.Errorf("expected line %d: want 5 or 6 tab-separated fields (set, position, rule, verdict, reason[, message]), got %d", n, len(f))
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		e := &Entry{Set: f[0], Pos: f[1], Rule: f[2], Verdict: f[3], Reason: f[4], Notes: notes, Line: n}
		if len(f) == 6 {
			e.Message = f[5]
		}
		if e.Set == "" || e.Rule == "" || e.Verdict == "" {
			return nil, fmt.Errorf("expected line %d: empty set, rule or verdict", n)
		}
		if _, _, _, ok := splitPos(e.Pos); !ok {
			return nil, fmt.Errorf("expected line %d: position %q: want FILE:LINE:COLUMN", n, e.Pos)
		}
		notes = nil
		x.Entries = append(x.Entries, e)
	}
	if len(x.Entries) == 0 {
		x.Header = append(x.Header, notes...)
	} else {
		x.Trailer = notes
	}
	for len(x.Header) > 0 && x.Header[len(x.Header)-1] == "" {
		x.Header = x.Header[:len(x.Header)-1]
	}
	return x, sc.Err()
}

// Write writes the file back: the header, then the entries grouped by set
// in the order of sets (sets not listed last, by name), each group sorted by
// position and rule and preceded by a blank line.
func (x *Expected) Write(w io.Writer, order []string) error {
	bw := bufio.NewWriter(w)
	for _, h := range x.Header {
		fmt.Fprintln(bw, h)
	}
	rank := map[string]int{}
	for i, s := range order {
		rank[s] = i
	}
	entries := append([]*Entry(nil), x.Entries...)
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Set != b.Set {
			ra, oka := rank[a.Set]
			rb, okb := rank[b.Set]
			if oka != okb {
				return oka
			}
			if oka && ra != rb {
				return ra < rb
			}
			return a.Set < b.Set
		}
		if c := comparePos(a.Pos, b.Pos); c != 0 {
			return c < 0
		}
		return a.Rule < b.Rule
	})
	for i, e := range entries {
		if i == 0 || entries[i-1].Set != e.Set {
			fmt.Fprintln(bw)
		}
		for _, n := range e.Notes {
			fmt.Fprintln(bw, n)
		}
		fields := []string{e.Set, e.Pos, e.Rule, e.Verdict, oneLine(e.Reason)}
		if e.Message != "" {
			fields = append(fields, oneLine(e.Message))
		}
		fmt.Fprintln(bw, strings.Join(fields, "\t"))
	}
	if len(x.Trailer) > 0 {
		fmt.Fprintln(bw)
		for _, t := range x.Trailer {
			fmt.Fprintln(bw, t)
		}
	}
	return bw.Flush()
}

// oneLine makes text fit in one tab-separated field.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
