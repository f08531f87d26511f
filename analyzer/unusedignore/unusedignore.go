package unusedignore

import (
	_ "embed"
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
	"github.com/guardvet/guardvet/analyzer/lockorder"
	"github.com/guardvet/guardvet/analyzer/noblock"
)

//go:embed doc.go
var docFile string

// Rules are the analyzers whose diagnostics //guard:ignore can suppress.
var Rules = []*analysis.Analyzer{guardedby.Analyzer, lockorder.Analyzer, noblock.Analyzer, escape.Analyzer, checkthenact.Analyzer, guardinfer.Analyzer}

// Analyzer is the unusedignore rule.
var Analyzer = &analysis.Analyzer{
	Name:     "unusedignore",
	Doc:      docs.Extract(docFile, "unusedignore"),
	URL:      "https://github.com/guardvet/guardvet#unusedignore",
	Run:      run,
	Requires: append([]*analysis.Analyzer{directives.Analyzer}, Rules...),
}

// Category is the diagnostic category of this rule.
const Category = "unusedignore"

func run(pass *analysis.Pass) (any, error) {
	dirs := pass.ResultOf[directives.Analyzer].(*directives.Result)
	for _, ig := range dirs.Ignores {
		if ig.Dialect {
			continue // checklocks code carries many; not reporting them keeps the switch a one-line change
		}
		used := false
		for _, rule := range Rules {
			if pass.ResultOf[rule].(report.Used)[ig.Pos] {
				used = true
			}
		}
		if used {
			continue
		}
		from, to := extent(pass, ig.Pos)
		pass.Report(analysis.Diagnostic{
			Pos: ig.Pos, Category: Category,
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
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return pos, end
	}
	lineStart := tf.LineStart(tf.Line(pos))
	before := src[tf.Offset(lineStart):tf.Offset(pos)]
	if strings.TrimSpace(string(before)) == "" {
		if line := tf.Line(pos); line < tf.LineCount() {
			return lineStart, tf.LineStart(line + 1)
		}
		return lineStart, end
	}
	trimmed := strings.TrimRight(string(before), " \t")
	return lineStart + token.Pos(len(trimmed)), end
}
