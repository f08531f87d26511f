package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsDocumented checks that every flag `guardvet -help` lists is in
// docs/output.md, the flag reference, as `-NAME`.
func TestFlagsDocumented(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	stdout, stderr, _ := run(t, t.TempDir(), guardvet, "-help")
	// Each flag is a line "  -NAME ..." with its usage on that line or the
	// next. A rule's own switch (-NAME, listed under "Rules") is
	// documented by the rows for -NAME=false and -NAME, checked below, and
	// by its page in docs/rules.
	flagLine := regexp.MustCompile(`^  -([\w.-]+)`)
	lines := strings.Split(stdout+stderr, "\n")
	n := 0
	for i, line := range lines {
		m := flagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		usage := line
		if i+1 < len(lines) && !flagLine.MatchString(lines[i+1]) {
			usage += lines[i+1]
		}
		if _, err := os.Stat(filepath.Join("..", "..", "docs", "rules", m[1]+".md")); err == nil {
			continue
		}
		if !regexp.MustCompile("`-" + regexp.QuoteMeta(m[1]) + "[\\s=`]").MatchString(page) {
			t.Errorf("flag -%s is not documented in docs/output.md", m[1])
		}
	}
	if n < 10 {
		t.Fatalf("guardvet -help lists %d flags; is this the help text?\n%s%s", n, stdout, stderr)
	}
	for _, row := range []string{"`-NAME=false`", "`-NAME`"} {
		if !strings.Contains(page, row) {
			t.Errorf("docs/output.md has no row for %s (the rules' switches)", row)
		}
	}
	// The exit codes, too.
	for _, code := range []string{"| 0 |", "| 1 |", "| 2 |"} {
		if !strings.Contains(page, code) {
			t.Errorf("docs/output.md has no exit code row %q", code)
		}
	}
}
