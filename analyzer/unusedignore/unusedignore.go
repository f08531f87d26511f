package unusedignore

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/report"
)

//go:embed doc.go
var docFile string

// Rules are the analyzers whose diagnostics //guard:ignore can suppress.
var Rules = []*analysis.Analyzer{guardedby.Analyzer}

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
		used := false
		for _, rule := range Rules {
			if pass.ResultOf[rule].(report.Used)[ig.Pos] {
				used = true
			}
		}
		if used {
			continue
		}
		end := ig.Pos + 1
		for _, f := range pass.Files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if c.Slash == ig.Pos {
						end = c.End()
					}
				}
			}
		}
		pass.Report(analysis.Diagnostic{
			Pos: ig.Pos, End: end, Category: Category,
			Message: "//guard:ignore suppresses nothing here; remove it",
			SuggestedFixes: []analysis.SuggestedFix{{
				Message:   "Remove the unused //guard:ignore",
				TextEdits: []analysis.TextEdit{{Pos: ig.Pos, End: end}},
			}},
		})
	}
	return nil, nil
}
