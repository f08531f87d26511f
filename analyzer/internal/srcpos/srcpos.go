// Package srcpos orders source positions the same way in every run.
//
// token.Pos values of different files compare in the order the files were
// added to the FileSet, and the loader parses a package's files
// concurrently, so that order changes from run to run. Anything that
// picks "the first" of several positions, or processes functions in
// position order (where recursion is cut, which site stands for several),
// must compare by file name and offset instead.
package srcpos

import "go/token"

// Less reports whether a comes before b: by file name, then offset.
func Less(fset *token.FileSet, a, b token.Pos) bool {
	fa, fb := fset.File(a), fset.File(b)
	if fa == nil || fb == nil || fa == fb {
		return a < b
	}
	if fa.Name() != fb.Name() {
		return fa.Name() < fb.Name()
	}
	return a < b
}

// LinePrefix returns the source text from the start of pos's line to pos,
// read with readFile (a pass's ReadFile), and false when the file cannot
// be read.
func LinePrefix(fset *token.FileSet, readFile func(string) ([]byte, error), pos token.Pos) (string, bool) {
	tf := fset.File(pos)
	if tf == nil {
		return "", false
	}
	src, err := readFile(tf.Name())
	if err != nil {
		return "", false
	}
	start, end := tf.Offset(tf.LineStart(tf.Line(pos))), tf.Offset(pos)
	if start < 0 || end > len(src) || start > end {
		return "", false
	}
	return string(src[start:end]), true
}
