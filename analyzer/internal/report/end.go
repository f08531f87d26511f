package report

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// End is where the code a diagnostic at pos is about ends, for its
// range (analysis.Diagnostic.End; -json's end, SARIF's endColumn): the
// end of the comment pos is in (a directive), else of the largest
// expression that starts at pos (s.n for a finding at s in s.n = 0; the
// call for one at s.mu.Lock()), else of the smallest expression around it
// (the call, for a finding at its parenthesis). NoPos when pos is in no
// expression (a declaration's name): the range is then the position.
func End(pass *analysis.Pass, pos token.Pos) token.Pos {
	if !pos.IsValid() {
		return token.NoPos
	}
	for _, f := range pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if c.Pos() <= pos && pos < c.End() {
					return c.End()
				}
			}
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		var inner, starting ast.Expr
		for _, n := range path {
			e, ok := n.(ast.Expr)
			if !ok {
				continue
			}
			if inner == nil {
				inner = e
			}
			if e.Pos() == pos {
				starting = e
			}
		}
		switch {
		case starting != nil:
			return starting.End()
		case inner != nil:
			return inner.End()
		}
		return token.NoPos
	}
	return token.NoPos
}
