package shared

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/report"
)

// reserveIgnores marks, with the rule off in this run, the
// //guard:ignore directives it could have a finding under, so that
// unusedignore does not call one written for it unused just because it is
// off.
func reserveIgnores(pass *analysis.Pass, dirs *directives.Result, rep *report.Reporter) {
	for _, ig := range dirs.Ignores {
		if !ig.Dialect && sharedMightUse(pass, ig) {
			rep.Reserve(ig)
		}
	}
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
