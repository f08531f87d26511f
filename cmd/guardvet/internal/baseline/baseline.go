// Package baseline is guardvet's record of accepted findings: a file
// listing the findings a codebase had when guardvet was turned on, so that
// later runs report only new ones (guardvet -baseline), and the entries
// no finding matches any more, so that the file shrinks as code is fixed.
//
// A finding is matched by its fingerprint, the value SARIF's
// partialFingerprints carries ("guardvet/v1"): a hash of its rule, its
// file, its message with positions and counts taken out, and the text of
// its line, trimmed; then ":N", its rank among the findings with that
// hash. It does not include the line number, so a finding keeps its
// fingerprint when lines above it move, when other parts of the file are
// reformatted, and when the message's counts or positions change with
// code elsewhere. Editing the finding's own line gives it a new
// fingerprint: changed code is checked again.
package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Version is the file format's version, the value of its "guardvet_baseline" key.
const Version = 1

// Finding is one entry of the file.
type Finding struct {
	Rule string `json:"rule"`
	// File is the finding's file relative to the baseline file's
	// directory, with forward slashes.
	File string `json:"file"`
	// Line is where the finding was when the file was written; matching
	// does not use it.
	Line        int    `json:"line"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

// File is a baseline file's content.
type File struct {
	Version  int       `json:"guardvet_baseline"`
	Findings []Finding `json:"findings"`
}

var (
	positions = regexp.MustCompile(`(\.go|\.s):\d+(:\d+)?`)
	numbers   = regexp.MustCompile(`\d+`)
)

// Fingerprint is the hash of a finding's rule, file (as the caller names
// it: relative, slash-separated), message and line text. Positions
// (file.go:12:3) in the message keep their file only and other numbers
// are dropped, since both change with code elsewhere in the file.
func Fingerprint(rule, file, message, lineText string) string {
	message = positions.ReplaceAllString(message, "$1")
	message = numbers.ReplaceAllString(message, "#")
	h := sha256.Sum256([]byte(strings.Join([]string{rule, file, message, strings.TrimSpace(lineText)}, "\x00")))
	return hex.EncodeToString(h[:8])
}

// Rank appends to each hash its rank among the equal hashes before it
// (":1", ":2", ...), in the order given, so that findings whose hashes
// collide (the same message twice on one line) stay distinct.
func Rank(hashes []string) []string {
	seen := map[string]int{}
	out := make([]string, len(hashes))
	for i, h := range hashes {
		seen[h]++
		out[i] = fmt.Sprintf("%s:%d", h, seen[h])
	}
	return out
}

// Read reads a baseline file. The errors name the file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a guardvet baseline: %v", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: baseline format %d; this guardvet reads format %d (guardvet -write-baseline writes it anew)", path, f.Version, Version)
	}
	for i, e := range f.Findings {
		if e.Fingerprint == "" || e.File == "" {
			return nil, fmt.Errorf("%s: finding %d has no fingerprint or file", path, i+1)
		}
	}
	return &f, nil
}

// Write writes the findings to path, sorted by file, line and rule, one
// per line, through a temporary file renamed into place, so that a
// failed write leaves the old file whole.
func Write(path string, findings []Finding) error {
	sorted := append([]Finding(nil), findings...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Fingerprint < b.Fingerprint
	})
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\n\t\"guardvet_baseline\": %d,\n\t\"findings\": [", Version)
	for i, f := range sorted {
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false) // messages say <-ch, not \u003c-ch
		if err := enc.Encode(f); err != nil {
			return err
		}
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n\t\t")
		buf.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
	}
	if len(sorted) > 0 {
		buf.WriteString("\n\t")
	}
	buf.WriteString("]\n}\n")
	tmp, err := os.CreateTemp(filepath.Dir(path), ".guardvet-baseline-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Match compares the current findings with the file's. It returns
// whether each current finding is new (in no entry), and the entries no
// current finding matches among those inScope reports true for (the
// entries the run could have reported: of a file it checked, by a rule
// it ran there; the others are not stale, only out of sight).
func (f *File) Match(current []Finding, inScope func(Finding) bool) (isNew []bool, stale []Finding) {
	known := map[string]bool{}
	for _, e := range f.Findings {
		known[e.Fingerprint] = true
	}
	found := map[string]bool{}
	isNew = make([]bool, len(current))
	for i, c := range current {
		found[c.Fingerprint] = true
		isNew[i] = !known[c.Fingerprint]
	}
	for _, e := range f.Findings {
		if !found[e.Fingerprint] && inScope(e) {
			stale = append(stale, e)
		}
	}
	return isNew, stale
}

// Update is the file's content after a run: the current findings, and
// the entries out of the run's scope, kept as they are.
func (f *File) Update(current []Finding, inScope func(Finding) bool) []Finding {
	out := append([]Finding(nil), current...)
	if f == nil {
		return out
	}
	for _, e := range f.Findings {
		if !inScope(e) {
			out = append(out, e)
		}
	}
	return out
}
