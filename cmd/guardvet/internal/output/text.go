package output

import (
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// PrintText prints findings as text, one line each and a line under it
// for each related position.
func PrintText(w io.Writer, findings []Finding) {
	for _, f := range findings {
		// The rule that fired, as staticcheck names its checks: the
		// name -RULE=false turns off.
		fmt.Fprintf(w, "%s: %s (%s)\n", relPosition(f.Posn), f.Diag.Message, f.Analyzer.Name)
		for _, r := range f.Diag.Related {
			fmt.Fprintf(w, "\t%s: %s\n", relPosition(f.Fset.Position(r.Pos)), r.Message)
		}
	}
}

// relPosition prints a position relative to the working directory when the
// file is below it, so output is short and the same on every machine.
func relPosition(p token.Position) string {
	p.Filename = RelPath(p.Filename)
	return p.String()
}

// RelPath is name relative to the working directory when the file is
// below it, else name: how findings and errors name files.
func RelPath(name string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return name
}
