package unusedignore

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/escape"
	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/guardinfer"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/lockorder"
	"github.com/guardvet/guardvet/analyzer/noblock"
	"github.com/guardvet/guardvet/analyzer/shared"
)

// Rules are guardvet's rules, the analyzers whose diagnostics
// //guard:ignore can suppress, in the order guardvet lists them; the
// suite is built from this list.
var Rules = []*analysis.Analyzer{guardedby.Analyzer, lockorder.Analyzer, noblock.Analyzer, escape.Analyzer, checkthenact.Analyzer, guardinfer.Analyzer, shared.Analyzer}

// Analyzer is the unusedignore rule.
var Analyzer = &analysis.Analyzer{
	Name:     "unusedignore",
	Doc:      docs.Extract(docFile, "unusedignore"),
	URL:      docs.RuleURL("unusedignore"),
	Run:      run,
	Requires: append([]*analysis.Analyzer{directives.Analyzer}, Rules...),
}

// Category is the diagnostic category of this rule.
const Category = "unusedignore"

func run(pass *analysis.Pass) (any, error) {
	dirs := directives.Of(pass)
	for _, ig := range dirs.Ignores {
		if ig.Dialect {
			continue // checklocks code carries many; not reporting them keeps the switch a one-line change
		}
		used := false
		for _, res := range pass.ResultOf { // the rules' (Rules, or their copies: config.Bind)
			if u, ok := res.(report.Used); ok && u[ig.Pos] {
				used = true
			}
		}
		if used {
			continue
		}
		from, to := extent(pass, ig.Pos)
		pass.Report(analysis.Diagnostic{
			Pos: ig.Pos, End: report.End(pass, ig.Pos), Category: Category,
			Message: "//guard:ignore suppresses nothing here; remove it",
			SuggestedFixes: []analysis.SuggestedFix{{
				Message:   "Remove the unused //guard:ignore",
				TextEdits: []analysis.TextEdit{{Pos: from, End: to}},
			}},
		})
	}
	return nil, nil
}

// extent is the text to delete with the comment at pos: the whole line when
// the comment stands alone, else the comment and the blanks before it.
func extent(pass *analysis.Pass, pos token.Pos) (token.Pos, token.Pos) {
	end := pos
	for _, f := range pass.Files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				if c.Slash == pos {
					end = c.End()
				}
			}
		}
	}
	tf := pass.Fset.File(pos)
	before, ok := srcpos.LinePrefix(pass.Fset, pass.ReadFile, pos)
	if !ok {
		return pos, end
	}
	lineStart := tf.LineStart(tf.Line(pos))
	if strings.TrimSpace(before) == "" {
		if line := tf.Line(pos); line < tf.LineCount() {
			return lineStart, tf.LineStart(line + 1)
		}
		return lineStart, end
	}
	trimmed := strings.TrimRight(before, " \t")
	return lineStart + token.Pos(len(trimmed)), end
}
