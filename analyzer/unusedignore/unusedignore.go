package unusedignore

import (
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
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
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
	dirs := pass.ResultOf[directives.Analyzer].(*directives.Result)
	var weighed map[*types.Var]bool // computed on first need
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
		if used || (!dirs.Config.Infer() && inferenceMightUse(pass, dirs, ig, &weighed)) || (!dirs.Config.Shared() && sharedMightUse(pass, ig)) {
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

// inferenceMightUse reports whether guard inference, which is off in this
// run, could have a finding under ig: an ignore written for it (as its
// findings advise) is not unused just because it is off. Inference weighs
// accesses to fields without directives in structs that hold a lock, when
// the package touches the field somewhere with that lock taken, and calls
// of ...Locked methods.
func inferenceMightUse(pass *analysis.Pass, dirs *directives.Result, ig *directives.Ignore, weighed *map[*types.Var]bool) bool {
	if *weighed == nil {
		*weighed = weighedFields(pass)
	}
	covers := func(n ast.Node) bool { return ig.Covers(pass.Fset, n.Pos()) }
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
				if v, _ := s.Obj().(*types.Var); v != nil && dirs.Guard(v) == nil && (*weighed)[v] {
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

// weighedFields lists the fields without directives that guard inference
// has evidence about: fields of a struct holding a lock, accessed in some
// function that also takes a lock of that struct type.
func weighedFields(pass *analysis.Pass) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			locked := map[types.Type]bool{} // owner struct types whose lock is taken here
			var fields []*types.Selection
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				s := pass.TypesInfo.Selections[sel]
				if s == nil {
					return true
				}
				switch s.Kind() {
				case types.FieldVal:
					if locks.HolderHasLock(s) {
						fields = append(fields, s)
					}
				case types.MethodVal:
					if name := sel.Sel.Name; name == "Lock" || name == "RLock" {
						if inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok {
							if is := pass.TypesInfo.Selections[inner]; is != nil && is.Kind() == types.FieldVal {
								locked[astq.Holder(is)] = true
							}
						} else if rs := s.Recv(); rs != nil {
							locked[astq.Deref(rs)] = true // an embedded lock: c.Lock()
						}
					}
				}
				return true
			})
			for _, s := range fields {
				if locked[astq.Holder(s)] {
					out[s.Obj().(*types.Var)] = true
				}
			}
		}
	}
	return out
}

// sharedMightUse reports whether the shared rule, off in this run, could
// have a finding under ig: it covers a use, inside a goroutine's closure,
// of a variable the closure shares (package-level, or declared outside
// it). The rule reports there.
func sharedMightUse(pass *analysis.Pass, ig *directives.Ignore) bool {
	covers := func(n ast.Node) bool { return ig.Covers(pass.Fset, n.Pos()) }
	for _, f := range pass.Files {
		if f.FileStart > ig.Pos || ig.Pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if from, to := pass.Fset.Position(fd.Pos()).Line, pass.Fset.Position(fd.End()).Line; ig.From.IsValid() && (ig.To <= fd.Pos() || fd.End() <= ig.From) ||
				!ig.From.IsValid() && (ig.Line < from || ig.Line > to) {
				continue
			}
			for _, b := range goroutines.Find(pass.TypesInfo, fd) {
				for _, s := range b.Spawns {
					if s.Lit == nil {
						continue
					}
					found := false
					ast.Inspect(s.Lit.Body, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok && !found && covers(id) {
							if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && (v.Pos() < s.Lit.Pos() || v.Pos() >= s.Lit.End()) {
								found = true
							}
						}
						return !found
					})
					if found {
						return true
					}
				}
			}
		}
	}
	return false
}
