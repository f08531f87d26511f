package output

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// JSONTree is -json's output: package ID → analyzer → its diagnostics.
type JSONTree map[string]map[string]json.RawMessage

// PrintJSON prints the x/tools JSON tree (package ID → analyzer →
// diagnostics) of every load, fresh or replayed from the cache, as one
// object, as a single load prints it.
func PrintJSON(w io.Writer, trees []JSONTree) error {
	merged := map[string]map[string]json.RawMessage{}
	for _, t := range trees {
		for id, v := range t {
			if merged[id] == nil {
				merged[id] = map[string]json.RawMessage{}
			}
			for name, raw := range v {
				merged[id][name] = appendDiagnostics(merged[id][name], raw)
			}
		}
	}
	dropVariantRepeats(merged)
	data, err := json.MarshalIndent(merged, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// appendDiagnostics appends an analyzer's diagnostics in one tree to
// those in another (a package analysed in two passes, with files in two
// modes); an error, or nothing before, is replaced.
func appendDiagnostics(to, from json.RawMessage) json.RawMessage {
	var a, b []json.RawMessage
	if to == nil || json.Unmarshal(to, &a) != nil || json.Unmarshal(from, &b) != nil {
		return from
	}
	out, _ := json.Marshal(append(a, b...)) // raw messages: cannot fail
	return out
}

// dropVariantRepeats removes from a test variant's entry (p [p.test]) the
// diagnostics its package's entry has at the same position for the same
// analyzer: the variant shares the package's files, and one bug is one
// report, as in the text output. A variant left with nothing is dropped.
func dropVariantRepeats(tree map[string]map[string]json.RawMessage) {
	type diag struct {
		Posn string `json:"posn"`
	}
	for id, byAnalyzer := range tree {
		i := strings.Index(id, " [")
		if i < 0 {
			continue
		}
		base := tree[id[:i]]
		for name, raw := range byAnalyzer {
			var mine, theirs []json.RawMessage
			if json.Unmarshal(raw, &mine) != nil || json.Unmarshal(base[name], &theirs) != nil {
				continue // an analyzer error, or nothing to compare with
			}
			seen := map[string]bool{}
			for _, d := range theirs {
				var x diag
				if json.Unmarshal(d, &x) == nil {
					seen[x.Posn] = true
				}
			}
			var kept []json.RawMessage
			for _, d := range mine {
				var x diag
				if json.Unmarshal(d, &x) == nil && seen[x.Posn] {
					continue
				}
				kept = append(kept, d)
			}
			if len(kept) == 0 {
				delete(byAnalyzer, name)
				continue
			}
			byAnalyzer[name], _ = json.Marshal(kept)
		}
		if len(byAnalyzer) == 0 {
			delete(tree, id)
		}
	}
}

// Keep returns a copy of the tree with the diagnostics keep accepts;
// analyzers' errors stay.
func (t JSONTree) Keep(keep func(rule, posn, msg string) bool) JSONTree {
	out := JSONTree{}
	for id, byAnalyzer := range t {
		m := map[string]json.RawMessage{}
		for name, raw := range byAnalyzer {
			var diags []json.RawMessage
			if json.Unmarshal(raw, &diags) != nil {
				m[name] = raw // {"error": ...}
				continue
			}
			var kept []json.RawMessage
			for _, d := range diags {
				var x struct{ Posn, Message string }
				if json.Unmarshal(d, &x) == nil && keep(name, x.Posn, x.Message) {
					kept = append(kept, d)
				}
			}
			if len(kept) > 0 {
				m[name], _ = json.Marshal(kept) // raw messages: cannot fail
			}
		}
		if len(m) > 0 {
			out[id] = m
		}
	}
	return out
}

// The JSON shape of a diagnostic in -json, as the x/tools drivers print it
// (golang.org/x/tools/internal/analysis/driverutil, not importable).
type jsonTextEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonSuggestedFix struct {
	Message string         `json:"message"`
	Edits   []jsonTextEdit `json:"edits"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiagnostic struct {
	Category       string             `json:"category,omitempty"`
	Posn           string             `json:"posn"`
	End            string             `json:"end"`
	Message        string             `json:"message"`
	SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated      `json:"related,omitempty"`
}

// JSONDiagnostics is diags as an analyzer's list of diagnostics in the
// -json tree, as the x/tools drivers print it.
func JSONDiagnostics(fset *token.FileSet, diags []analysis.Diagnostic) ([]byte, error) {
	out := make([]jsonDiagnostic, 0, len(diags))
	for _, d := range diags {
		var fixes []jsonSuggestedFix
		for _, fix := range d.SuggestedFixes {
			var edits []jsonTextEdit
			for _, e := range fix.TextEdits {
				edits = append(edits, jsonTextEdit{Filename: fset.Position(e.Pos).Filename, Start: fset.Position(e.Pos).Offset,
					End: fset.Position(e.End).Offset, New: string(e.NewText)})
			}
			fixes = append(fixes, jsonSuggestedFix{Message: fix.Message, Edits: edits})
		}
		var related []jsonRelated
		for _, r := range d.Related {
			related = append(related, jsonRelated{Posn: fset.Position(r.Pos).String(), End: fset.Position(cmp.Or(r.End, r.Pos)).String(), Message: r.Message})
		}
		out = append(out, jsonDiagnostic{Category: d.Category, Posn: fset.Position(d.Pos).String(), End: fset.Position(cmp.Or(d.End, d.Pos)).String(),
			Message: d.Message, SuggestedFixes: fixes, Related: related})
	}
	return json.Marshal(out)
}
