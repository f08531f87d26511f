// Package ignore is the //guard:ignore directive as the rules apply it:
// where it is and what it covers. The directives analyzer reads them;
// report and unusedignore use them.
package ignore

import "go/token"

// Ignore is a //guard:ignore directive. A line ignore covers one line of one
// file; a function ignore covers the function's whole extent.
type Ignore struct {
	Pos      token.Pos // the comment
	Reason   string
	File     string
	Line     int       // line ignores
	From, To token.Pos // function ignores
	Dialect  bool      // a dialect ignore: not reported when unused
}

// Covers reports whether the ignore applies at pos: inside the function
// it is on, or on its line.
func (ig *Ignore) Covers(fset *token.FileSet, pos token.Pos) bool {
	if ig.From.IsValid() {
		return ig.From <= pos && pos < ig.To
	}
	p := fset.Position(pos)
	return ig.Line == p.Line && ig.File == p.Filename
}
