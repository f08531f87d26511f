package guardinfer

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
)

// reserveIgnores marks, with inference off in this run, the
// //guard:ignore directives inference could have a finding under, so that
// unusedignore does not call an ignore written for inference (as its
// findings advise) unused just because it is off.
func reserveIgnores(pass *analysis.Pass, dirs *directives.Result, rep *report.Reporter) {
	var weighed map[*types.Var]bool // computed on first need
	for _, ig := range dirs.Ignores {
		if !ig.Dialect && inferenceMightUse(pass, dirs, ig, &weighed) {
			rep.Reserve(ig)
		}
	}
}

// inferenceMightUse reports whether guard inference, which is off in this
// run, could have a finding under ig. Inference weighs
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
