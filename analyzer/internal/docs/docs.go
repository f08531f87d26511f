// Package docs turns an analyzer's doc.go package comment into its
// Analyzer.Doc, so that godoc and `guardvet help NAME` say the same thing.
package docs

import "strings"

// Extract returns the text of the "# Analyzer NAME" section of a doc.go
// file's /* */ package comment: the first line is the one-line summary.
func Extract(docFile, name string) string {
	text := docFile
	if i := strings.Index(text, "/*"); i >= 0 {
		text = text[i+2:]
	}
	if i := strings.Index(text, "*/"); i >= 0 {
		text = text[:i] // the comment ends here; doc.go's declarations follow
	}
	head := "# Analyzer " + name
	i := strings.Index(text, head)
	if i < 0 {
		panic("doc.go has no section " + head)
	}
	text = text[i+len(head):]
	if j := strings.Index(text, "\n# "); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSpace(text)
}

// RuleURL is the Analyzer.URL of an analyzer with a page of its own among
// the rules' (docs/rules/NAME.md).
func RuleURL(name string) string {
	return "https://github.com/guardvet/guardvet/blob/main/docs/rules/" + name + ".md"
}
