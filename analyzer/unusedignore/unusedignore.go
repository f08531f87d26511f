package unusedignore

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
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
	"github.com/guardvet/guardvet/analyzer/lockstate"
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
		if used || (!dirs.Config.Infer() && inferenceMightUse(pass, dirs, ig)) {
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

// inferenceMightUse reports whether guard inference, which is off in this
// run, could have a finding under ig: an ignore written for it (as its
// findings advise) is not unused just because it is off. Inference weighs
// accesses to fields without directives in structs that hold a lock, and
// calls of ...Locked methods.
func inferenceMightUse(pass *analysis.Pass, dirs *directives.Result, ig *directives.Ignore) bool {
	covers := func(n ast.Node) bool {
		if ig.From.IsValid() {
			return ig.From <= n.Pos() && n.Pos() < ig.To
		}
		p := pass.Fset.Position(n.Pos())
		return p.Line == ig.Line && p.Filename == ig.File
	}
	might := false
	for _, f := range pass.Files {
		if f.FileStart > ig.Pos || ig.Pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if might || !ok || !covers(sel) {
				return !might
			}
			s := pass.TypesInfo.Selections[sel]
			switch {
			case s == nil:
			case s.Kind() == types.FieldVal:
				if v, _ := s.Obj().(*types.Var); v != nil && dirs.Guard(v) == nil && lockstate.OwnerHasLock(s) {
					might = true
				}
			case strings.HasSuffix(sel.Sel.Name, "Locked"):
				might = true
			}
			return !might
		})
	}
	return might
}
