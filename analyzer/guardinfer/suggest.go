package guardinfer

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
)

// Suggestions: the directives inference would add (-suggest), with the
// fixes that write them.

// suggestField reports, at a field, the directive inference would add.
func (r *inference) suggestField(v *types.Var, fix *analysis.SuggestedFix, why string, e evidence) {
	msg := fmt.Sprintf("add //guard:by %s to %s: %s", e.lock, v.Name(), why)
	if len(e.misses) > 0 {
		msg += fmt.Sprintf("; guardedby will then report the %d that do not (first at %s)", len(e.misses), r.site(e.misses[0].Pos))
	}
	d := analysis.Diagnostic{Pos: v.Pos(), Message: msg}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	r.rep.Report(d)
}

// suggestLockedContracts reports, at each ...Locked method or function whose
// doc says its caller holds a lock, the //guard:holds directive that states
// it, with how many calls in the package keep it.
func (r *inference) suggestLockedContracts() {
	calls := map[*types.Func][2]int{} // kept, all
	for _, f := range r.ls.Funcs {
		for _, call := range f.Calls {
			c := call.Contract
			if c == nil || c.Convention == "" {
				continue
			}
			n := calls[call.Callee.Origin()]
			n[1]++
			ref := append(c.Holds, c.RHolds...)[0]
			if call.State.Lock(f.RefAtCall(r.ls.Dirs, ref, call.Node, call.Callee)).Mode.Held() {
				n[0]++
			}
			calls[call.Callee.Origin()] = n
		}
	}
	for _, file := range r.pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := r.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			c := r.ls.Dirs.Contract(fn)
			if c == nil || c.Convention == "" {
				continue
			}
			verb, ref := "holds", c.Holds
			if len(ref) == 0 {
				verb, ref = "rholds", c.RHolds
			}
			directive := "//guard:" + verb + " " + ref[0].Text
			n := calls[fn]
			r.rep.Report(analysis.Diagnostic{
				Pos: fd.Name.Pos(),
				Message: fmt.Sprintf("add %s to %s: its %s says the caller holds %s; %d of %d calls in this package do",
					directive, fd.Name.Name, map[string]string{directives.ByName: "name", directives.ByDoc: "doc comment"}[c.Convention], ref[0].Text, n[0], n[1]),
				SuggestedFixes: []analysis.SuggestedFix{{
					Message:   "Declare " + directive + " on " + fd.Name.Name,
					TextEdits: []analysis.TextEdit{{Pos: fd.Pos(), End: fd.Pos(), NewText: []byte(directive + "\n")}},
				}},
			})
		}
	}
}

// addDirective is the fix that writes //guard:by lock on the field.
func addDirective(pass *analysis.Pass, v *types.Var, lock string) *analysis.SuggestedFix {
	for _, file := range pass.Files {
		if file.Pos() > v.Pos() || v.Pos() >= file.End() {
			continue
		}
		var field *ast.Field
		ast.Inspect(file, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok {
				for _, name := range f.Names {
					if name.Pos() == v.Pos() {
						field = f
					}
				}
			}
			return field == nil
		})
		if field == nil || len(field.Names) != 1 {
			return nil
		}
		text := " //guard:by " + lock
		pos := field.End()
		if field.Comment != nil {
			tf := pass.Fset.File(field.Pos())
			pos = tf.LineStart(tf.Line(field.Pos()))
			line, ok := srcpos.LinePrefix(pass.Fset, pass.ReadFile, field.Pos())
			if !ok || strings.TrimSpace(line) != "" {
				return nil
			}
			text = line + "//guard:by " + lock + "\n"
		}
		return &analysis.SuggestedFix{
			Message:   "Declare //guard:by " + lock + " on " + v.Name(),
			TextEdits: []analysis.TextEdit{{Pos: pos, End: pos, NewText: []byte(text)}},
		}
	}
	return nil
}
