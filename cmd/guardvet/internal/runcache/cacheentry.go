package runcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/token"
	"os"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// cacheEntry is one root package's result as the cache keeps it: its
// findings with positions as file offsets, and its part of -json's tree.
// Replaying it gives the same Findings a fresh run gives, down to the
// positions of related information and the edits of suggested fixes.
type cacheEntry struct {
	// Files are the files the positions point into, with the SHA-256 of
	// the content they were computed on.
	Files    []cachedFile
	Findings []cachedFinding
	JSON     map[string]json.RawMessage `json:",omitempty"`
}

type cachedFile struct {
	Name   string
	SHA256 string
}

// cachedPos is a position as a file (index into Files, -1 for none) and a
// byte offset.
type cachedPos struct {
	File   int
	Offset int
}

type cachedFinding struct {
	Analyzer, Category, Message, URL string
	Variant                          bool
	Pos, End                         cachedPos
	Related                          []cachedRelated `json:",omitempty"`
	Fixes                            []cachedFix     `json:",omitempty"`
}

type cachedRelated struct {
	Pos, End cachedPos
	Message  string
}

type cachedFix struct {
	Message string
	Edits   []cachedEdit
}

type cachedEdit struct {
	Pos, End cachedPos
	NewText  []byte
}

// entryEncoder turns findings into a cacheEntry. ok turns false when a
// position cannot be kept as an offset: a //line directive moved it (the
// replay would lose the mapping), or its file was not among those hashed.
type entryEncoder struct {
	e     *cacheEntry
	index map[string]int
	sums  map[string][sha256.Size]byte // the hashed files (packageKeys.files)
	ok    bool
}

func newEntryEncoder(sums map[string][sha256.Size]byte) *entryEncoder {
	return &entryEncoder{e: &cacheEntry{}, index: map[string]int{}, sums: sums, ok: true}
}

func (en *entryEncoder) pos(fset *token.FileSet, p token.Pos) cachedPos {
	if !p.IsValid() {
		return cachedPos{File: -1}
	}
	tf := fset.File(p)
	if tf == nil || fset.Position(p) != fset.PositionFor(p, false) {
		en.ok = false
		return cachedPos{File: -1}
	}
	name := tf.Name()
	i, seen := en.index[name]
	if !seen {
		sum, hashed := en.sums[name]
		if !hashed {
			en.ok = false
			return cachedPos{File: -1}
		}
		i = len(en.e.Files)
		en.index[name] = i
		en.e.Files = append(en.e.Files, cachedFile{Name: name, SHA256: hex.EncodeToString(sum[:])})
	}
	return cachedPos{File: i, Offset: tf.Offset(p)}
}

func (en *entryEncoder) add(f output.Finding) {
	d := f.Diag
	cf := cachedFinding{Analyzer: f.Analyzer.Name, Category: d.Category, Message: d.Message, URL: d.URL, Variant: f.Variant,
		Pos: en.pos(f.Fset, d.Pos), End: en.pos(f.Fset, d.End)}
	for _, r := range d.Related {
		cf.Related = append(cf.Related, cachedRelated{Pos: en.pos(f.Fset, r.Pos), End: en.pos(f.Fset, r.End), Message: r.Message})
	}
	for _, fix := range d.SuggestedFixes {
		cx := cachedFix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			cx.Edits = append(cx.Edits, cachedEdit{Pos: en.pos(f.Fset, e.Pos), End: en.pos(f.Fset, e.End), NewText: e.NewText})
		}
		cf.Fixes = append(cf.Fixes, cx)
	}
	en.e.Findings = append(en.e.Findings, cf)
}

// replayer rebuilds Findings from entries on one file set, each file added
// once, with its lines from its current content, which must still hash as
// it did.
type replayer struct {
	fset      *token.FileSet
	files     map[string]*token.File
	analyzers map[string]*analysis.Analyzer
}

func newReplayer(analyzers []*analysis.Analyzer) *replayer {
	r := &replayer{fset: token.NewFileSet(), files: map[string]*token.File{}, analyzers: map[string]*analysis.Analyzer{}}
	for _, a := range analyzers {
		r.analyzers[a.Name] = a
	}
	return r
}

// findings returns the entry's findings, or ok false when the entry cannot
// be replayed as it was stored (a file changed since, an unknown rule): a
// miss.
func (r *replayer) findings(e *cacheEntry) (out []output.Finding, ok bool) {
	files := make([]*token.File, len(e.Files))
	for i, cf := range e.Files {
		tf, ok := r.file(cf)
		if !ok {
			return nil, false
		}
		files[i] = tf
	}
	pos := func(p cachedPos) (token.Pos, bool) {
		if p.File < 0 {
			return token.NoPos, true
		}
		if p.File >= len(files) || p.Offset < 0 || p.Offset > files[p.File].Size() {
			return token.NoPos, false
		}
		return files[p.File].Pos(p.Offset), true
	}
	good := true
	at := func(p cachedPos) token.Pos {
		tp, ok := pos(p)
		good = good && ok
		return tp
	}
	for _, cf := range e.Findings {
		a := r.analyzers[cf.Analyzer]
		if a == nil {
			return nil, false
		}
		d := analysis.Diagnostic{Pos: at(cf.Pos), End: at(cf.End), Category: cf.Category, Message: cf.Message, URL: cf.URL}
		for _, rel := range cf.Related {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at(rel.Pos), End: at(rel.End), Message: rel.Message})
		}
		for _, fix := range cf.Fixes {
			sf := analysis.SuggestedFix{Message: fix.Message}
			for _, e := range fix.Edits {
				sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: at(e.Pos), End: at(e.End), NewText: e.NewText})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, sf)
		}
		out = append(out, output.Finding{Analyzer: a, Diag: d, Fset: r.fset, Posn: r.fset.Position(d.Pos), Variant: cf.Variant})
	}
	return out, good
}

func (r *replayer) file(cf cachedFile) (*token.File, bool) {
	if tf, ok := r.files[cf.Name]; ok {
		return tf, tf != nil
	}
	data, err := os.ReadFile(cf.Name)
	sum := sha256.Sum256(data)
	if err != nil || hex.EncodeToString(sum[:]) != cf.SHA256 {
		r.files[cf.Name] = nil
		return nil, false
	}
	tf := r.fset.AddFile(cf.Name, -1, len(data))
	tf.SetLinesForContent(data)
	r.files[cf.Name] = tf
	return tf, true
}
