//go:build integration

package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The integration tests run the snippets of README.md and docs/ as a user
// copies them: these helpers take them out of the markdown, so that the
// tested text is the documented text.

// fencedBlocks returns the contents of a markdown document's fenced code
// blocks, by info string ("" for a bare ```), in document order. A fence
// indented in a list item has its indentation removed from its lines.
func fencedBlocks(text string) map[string][]string {
	blocks := map[string][]string{}
	var lang, indent string
	var body []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case !in && strings.HasPrefix(trimmed, "```"):
			in, lang, body = true, strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), nil
			indent = line[:len(line)-len(trimmed)]
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks[lang] = append(blocks[lang], strings.Join(body, "\n")+"\n")
		case in:
			body = append(body, strings.TrimPrefix(line, indent))
		}
	}
	return blocks
}

// docFile reads a file of this repository, e.g. "README.md" or
// "docs/pre-commit.md".
func docFile(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// docSection returns the part of a markdown document from the heading line
// heading (e.g. "### Run") to the next heading of any level, outside code
// blocks. It fails the test if there is no such heading, so that a renamed
// section is noticed.
func docSection(t *testing.T, text, heading string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if l == heading {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("the document has no heading %q (this test runs its snippets; update it)", heading)
	}
	in := false
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(strings.TrimLeft(l, " "), "```"):
			in = !in
		case !in && regexp.MustCompile(`^#+ `).MatchString(l):
			return strings.Join(lines[start:i], "\n") + "\n"
		}
	}
	return strings.Join(lines[start:], "\n") + "\n"
}

// docBlocks returns the fenced blocks with info string lang of a section,
// and fails the test unless there are want of them.
func docBlocks(t *testing.T, section, lang string, want int) []string {
	t.Helper()
	blocks := fencedBlocks(section)[lang]
	if len(blocks) != want {
		heading, _, _ := strings.Cut(section, "\n")
		t.Fatalf("section %q has %d ```%s blocks, want %d (this test runs them; update it):\n%s", heading, len(blocks), lang, want, section)
	}
	return blocks
}

// docReplace replaces old with new in a snippet, and fails the test if old
// is not there exactly n times: the substitutions the docs tell a user to
// make, applied where the docs say.
func docReplace(t *testing.T, snippet, old, new string, n int) string {
	t.Helper()
	if got := strings.Count(snippet, old); got != n {
		t.Fatalf("want %d of %q in the snippet, found %d:\n%s", n, old, got, snippet)
	}
	return strings.ReplaceAll(snippet, old, new)
}

// transcriptPattern turns an output shown in the docs into a regular
// expression matching its lines, in order, as whole lines of an output: a
// run of four or more dots (pre-commit's padding) matches any run of dots,
// and " ... " (an elision) matches anything within the line.
func transcriptPattern(shown string) *regexp.Regexp {
	var parts []string
	for _, l := range strings.Split(strings.TrimSpace(shown), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		q := regexp.QuoteMeta(l)
		q = regexp.MustCompile(`(\\\.){4,}`).ReplaceAllString(q, `\.+`)
		q = strings.ReplaceAll(q, ` \.\.\. `, ` [^\n]* `)
		parts = append(parts, "^"+q+"$")
	}
	return regexp.MustCompile(`(?ms)` + strings.Join(parts, `.*?`))
}

func TestTranscriptPattern(t *testing.T) {
	shown := "hook.......Failed\n- exit code: 1\n\na.go:1:2: x read; ... (rule)\n"
	for out, want := range map[string]bool{
		"other\nhook...Failed\n- exit code: 1\n\na.go:1:2: x read; more text (rule)\n": true,
		"hook...Failed\n- exit code: 1\na.go:1:2: x read; more (other)\n":              false,
		"hook...Passed\n- exit code: 1\na.go:1:2: x read; more (rule)\n":               false,
		"a.go:1:2: x read; more (rule)\nhook...Failed\n- exit code: 1\n":               false,
		"hook...Failed\n- exit code: 1\na.go:1:2: x read;\n (rule)\n":                  false,
	} {
		if got := transcriptPattern(shown).MatchString(out); got != want {
			t.Errorf("transcriptPattern(%q).MatchString(%q) = %v, want %v", shown, out, got, want)
		}
	}
}
