package adopt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/baseline"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// entries are the findings as baseline entries, with fingerprints.
func (ad *Adoption) entries(findings []output.Finding) []baseline.Finding {
	dir := filepath.Dir(ad.path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	name := func(file string) string { return relTo(dir, file) }
	fingerprints := output.Fingerprints(findings, name)
	out := make([]baseline.Finding, len(findings))
	for i, f := range findings {
		out[i] = baseline.Finding{Rule: f.Analyzer.Name, File: name(f.Posn.Filename), Line: f.Posn.Line, Message: f.Diag.Message, Fingerprint: fingerprints[i]}
	}
	return out
}

// checkedFunc reports whether a baseline entry's file was checked, or is
// gone (deleted or renamed): either way the run knows all its findings.
func (ad *Adoption) checkedFunc(res output.Result) func(string) bool {
	dir, _ := filepath.Abs(filepath.Dir(ad.path)) // a relative path made absolute: only a missing working directory fails, and then nothing matches
	return func(file string) bool {
		abs := filepath.Join(dir, filepath.FromSlash(file))
		if res.Checked[abs] {
			return true
		}
		_, err := os.Stat(abs)
		return errors.Is(err, fs.ErrNotExist)
	}
}

// inScope reports whether a baseline entry is one this run could have
// reported: its file was checked, its rule ran there (the rule flags,
// the configuration file's settings for the file, -infer and -shared for
// their rules), and, with -new-from-rev, its line is one the run keeps.
// An entry of a deleted or renamed file is in every run's scope: no run
// can report it again. Entries out of scope are neither matched nor
// stale, and -write-baseline keeps them.
func (ad *Adoption) inScope(res output.Result, enabled []*analysis.Analyzer) func(baseline.Finding) bool {
	checked := ad.checkedFunc(res)
	ran := map[string]bool{}
	for _, a := range enabled {
		ran[a.Name] = true
	}
	dir, _ := filepath.Abs(filepath.Dir(ad.path))
	return func(e baseline.Finding) bool {
		if !checked(e.File) {
			return false
		}
		abs := filepath.Join(dir, filepath.FromSlash(e.File))
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			return true
		}
		m := ad.top
		if ad.conf != nil {
			m = ad.modeOf(abs)
		}
		switch {
		case !ran[e.Rule], e.Rule == "guardinfer" && !m.infer, e.Rule == "shared" && !m.shared:
			return false
		case ad.conf != nil && (ad.conf.Excluded(abs) || (!ad.decided[e.Rule] && !ad.conf.RuleOn(e.Rule, abs, !offByDefault[e.Rule]))):
			return false
		}
		return ad.changes == nil || ad.changes.Changed(abs, e.Line)
	}
}

// ApplyBaseline drops the findings the baseline lists, and reports its
// entries in the run's scope that no finding matches any more.
func (ad *Adoption) ApplyBaseline(res output.Result, enabled []*analysis.Analyzer, stderr io.Writer) output.Result {
	if ad.base == nil {
		return res
	}
	isNew, stale := ad.base.Match(ad.entries(res.Findings), ad.inScope(res, enabled))
	i := 0
	res = res.Keep(func(output.Finding) bool { i++; return isNew[i-1] })
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "guardvet: baseline %s: %s no finding matches any more (fixed, or its line changed); guardvet -write-baseline rewrites the file without %s:\n",
			output.RelPath(ad.path), output.Plural(len(stale), "entry", "entries"), map[bool]string{true: "it", false: "them"}[len(stale) == 1])
		for _, e := range stale {
			fmt.Fprintf(stderr, "\t%s:%d: %s (%s)\n", e.File, e.Line, e.Message, e.Rule)
		}
	}
	return res
}

// WritesBaseline reports whether the run writes the baseline
// (-write-baseline) instead of reporting its findings.
func (ad *Adoption) WritesBaseline() bool { return ad.write }

// WriteBaseline writes the run's findings to the baseline file, keeping
// the entries out of its scope (see inScope). A run with errors writes
// nothing: its findings are not all there.
func (ad *Adoption) WriteBaseline(res output.Result, enabled []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if res.Code == output.ExitError {
		fmt.Fprintf(stderr, "guardvet: -write-baseline: %s not written: the run had errors\n", output.RelPath(ad.path))
		return output.ExitError
	}
	current := ad.entries(res.Findings)
	all := ad.base.Update(current, ad.inScope(res, enabled))
	if err := baseline.Write(ad.path, all); err != nil {
		fmt.Fprintf(stderr, "guardvet: -write-baseline: %v\n", err)
		return output.ExitError
	}
	fmt.Fprintf(stderr, "guardvet: wrote %s: %s\n", output.RelPath(ad.path), output.Plural(len(all), "finding", "findings"))
	return output.ExitClean
}

// relTo is file relative to dir (../ included), with forward slashes;
// file itself when it has no relative path (another volume).
func relTo(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}
