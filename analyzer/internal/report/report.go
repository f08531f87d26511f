// Package report files diagnostics for guardvet's rules. It applies
// //guard:ignore directives and remembers which ones were used, so that the
// unusedignore analyzer can report those that suppress nothing.
package report

import (
	"fmt"
	"go/token"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/ignore"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
)

// Used is the set of //guard:ignore comments (by position) that suppressed
// at least one diagnostic of a rule. Every rule returns it as its result.
type Used map[token.Pos]bool

// UsedType is the ResultType of every rule analyzer.
var UsedType = reflect.TypeFor[Used]()

// Reporter reports a rule's diagnostics in one package.
type Reporter struct {
	pass     *analysis.Pass
	ignores  []*ignore.Ignore
	category string
	used     Used
	pending  []analysis.Diagnostic
	silent   bool
}

// Silence makes the reporter drop every diagnostic: the rule still runs in
// this package for the facts it exports, but the package is outside its
// scope (directives.Result.Full).
func (r *Reporter) Silence() { r.silent = true }

// New returns a Reporter for a rule whose diagnostics carry category,
// applying the package's ignores (directives.Result.Ignores).
func New(pass *analysis.Pass, ignores []*ignore.Ignore, category string) *Reporter {
	return &Reporter{pass: pass, ignores: ignores, category: category, used: Used{}}
}

// Report files d unless a //guard:ignore covers its position.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.silent {
		return
	}
	if d.Category == "" {
		d.Category = r.category
	}
	if ig := r.ignoreAt(d.Pos); ig != nil {
		r.used[ig.Pos] = true
		return
	}
	r.pending = append(r.pending, d)
}

// Ignored reports whether a //guard:ignore covers pos, and if so marks it
// used: for a rule that folds several sites into one diagnostic and must
// leave out the sites a maintainer has explained.
func (r *Reporter) Ignored(pos token.Pos) bool {
	if ig := r.ignoreAt(pos); ig != nil {
		r.used[ig.Pos] = true
		return true
	}
	return false
}

// Reserve marks ig used without a finding: for a rule that is off in this
// run, an ignore written for the findings it would have (as they advise)
// is not unused. The rule that owns the findings decides it, so that
// unusedignore asks each rule and knows no rule's logic.
func (r *Reporter) Reserve(ig *ignore.Ignore) { r.used[ig.Pos] = true }

// Flush reports the collected diagnostics in source order, so output does
// not depend on the order the engine visited functions and blocks in. It
// returns the rule's result.
func (r *Reporter) Flush() Used {
	sort.SliceStable(r.pending, func(i, j int) bool {
		a, b := r.pending[i], r.pending[j]
		if a.Pos != b.Pos {
			return srcpos.Less(r.pass.Fset, a.Pos, b.Pos)
		}
		return a.Message < b.Message
	})
	for i, d := range r.pending {
		if i > 0 && d.Pos == r.pending[i-1].Pos && d.Message == r.pending[i-1].Message {
			continue // the same closure checked at two call sites
		}
		if !d.End.IsValid() {
			d.End = End(r.pass, d.Pos)
		}
		if len(d.Related) > 0 {
			d.Related = append([]analysis.RelatedInformation(nil), d.Related...)
			for i, rel := range d.Related {
				if !rel.End.IsValid() {
					d.Related[i].End = End(r.pass, rel.Pos)
				}
			}
		}
		r.pass.Report(d)
	}
	r.pending = nil
	return r.used
}

// Reportf files a diagnostic with a message and optional related positions.
func (r *Reporter) Reportf(pos token.Pos, related []analysis.RelatedInformation, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Related: related})
}

func (r *Reporter) ignoreAt(pos token.Pos) *ignore.Ignore {
	for _, ig := range r.ignores {
		if ig.Covers(r.pass.Fset, pos) {
			return ig
		}
	}
	return nil
}

// Related is a convenience for one piece of related information.
func Related(pos token.Pos, msg string) []analysis.RelatedInformation {
	if !pos.IsValid() {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: msg}}
}
