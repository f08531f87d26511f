// Package fold writes a diagnostic's related positions into its message,
// for the front ends that print one line per diagnostic and would
// otherwise print each related position as a finding of its own, or as a
// line of its own the reader cannot tell from one: golangci-lint (an
// issue per related position) and go vet (a "file:line:col: \ttext" line
// per related position).
package fold

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Related is one related position, resolved.
type Related struct {
	File      string // the base name is written
	Line, Col int    // 0 when the position is unknown
	Message   string
}

// Message is msg followed by each related position, as
// "MSG; related: FILE:LINE:COL: TEXT", FILE the file's base name.
func Message(msg string, related []Related) string {
	var b strings.Builder
	b.WriteString(msg)
	for _, r := range related {
		b.WriteString("; related: ")
		if r.File != "" && r.Line > 0 {
			fmt.Fprintf(&b, "%s:%d:%d: ", filepath.Base(r.File), r.Line, r.Col)
		}
		b.WriteString(r.Message)
	}
	return b.String()
}
