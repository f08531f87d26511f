// Package output is what a standalone run shows of its findings: the
// Finding and the run's Result, their order, the text output, the -json
// tree (x/tools' shape), SARIF, the suggested fixes applied or shown as
// a diff, and the exit codes.
package output

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Exit codes. docs/output.md documents them; main_test.go asserts them.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // at least one diagnostic
	ExitError    = 2 // bad usage, or packages that fail to load or type-check
)

// Finding is one diagnostic with its analyzer and resolved position.
type Finding struct {
	Analyzer *analysis.Analyzer
	Diag     analysis.Diagnostic
	Fset     *token.FileSet
	Posn     token.Position
	// Variant: found in a package's test variant (p [p.test]), which
	// shares the package's files.
	Variant bool
}

// Result is what a run found: the findings in output order, the -json
// trees, the files of the packages it checked (absolute paths; for the
// baseline's stale entries), and the exit code so far.
type Result struct {
	Findings []Finding
	Trees    []JSONTree
	Checked  map[string]bool
	Dirs     map[string]bool // the directories of the root packages
	Code     int
}

// Add adds a load group's findings and -json tree, and records the files
// of its root packages as checked.
func (r *Result) Add(findings []Finding, tree JSONTree, roots []*packages.Package) {
	r.Findings = append(r.Findings, findings...)
	r.Trees = append(r.Trees, tree)
	for _, p := range roots {
		if len(p.GoFiles) > 0 {
			r.Dirs[filepath.Dir(p.GoFiles[0])] = true
		}
		for _, f := range p.GoFiles {
			r.Checked[f] = true
		}
		for _, f := range p.CompiledGoFiles {
			r.Checked[f] = true
		}
	}
}

// Keep returns the result with the findings keep accepts, and the -json
// trees with the diagnostics of those findings.
func (r Result) Keep(keep func(Finding) bool) Result {
	type key struct{ rule, posn, msg string }
	kept := map[key]bool{}
	var findings []Finding
	for _, f := range r.Findings {
		if keep(f) {
			findings = append(findings, f)
			kept[key{f.Analyzer.Name, f.Posn.String(), f.Diag.Message}] = true
		}
	}
	r.Findings = findings
	var trees []JSONTree
	for _, t := range r.Trees {
		trees = append(trees, t.Keep(func(rule, posn, msg string) bool { return kept[key{rule, posn, msg}] }))
	}
	r.Trees = trees
	return r
}

// Sort sorts findings into output order (position, rule, the package's
// before its test variant's, message) and drops repeats: a package and
// its test variant share files, and each finding is reported once.
func Sort(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Posn, fs[j].Posn
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if fs[i].Analyzer.Name != fs[j].Analyzer.Name {
			return fs[i].Analyzer.Name < fs[j].Analyzer.Name
		}
		if fs[i].Variant != fs[j].Variant {
			return !fs[i].Variant
		}
		return fs[i].Diag.Message < fs[j].Diag.Message
	})
	// A package and its test variant share files: report each finding once.
	// The variant's finding at a position where the package has one of
	// the same rule is that finding seen with the tests' code too (an
	// inferred guard's counts differ): the package's is kept.
	type key struct {
		posn     token.Position
		analyzer *analysis.Analyzer
	}
	inPackage := map[key]bool{}
	out := fs[:0]
	for i, f := range fs {
		k := key{f.Posn, f.Analyzer}
		if i > 0 && f.Posn == fs[i-1].Posn && f.Diag.Message == fs[i-1].Diag.Message {
			continue
		}
		if f.Variant && inPackage[k] {
			continue
		}
		if !f.Variant {
			inPackage[k] = true
		}
		out = append(out, f)
	}
	return out
}

// Plural is n and the noun in the number n asks for: "1 finding",
// "2 findings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// FirstLine is the summary of an analyzer's Doc, as -help and SARIF's
// rules show it: its first line, without the "NAME: " before it.
func FirstLine(doc string) string {
	line, _, _ := strings.Cut(doc, "\n")
	if _, rest, ok := strings.Cut(line, ": "); ok {
		return rest
	}
	return line
}
