package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docPart returns the text of a markdown file of this repository from
// the heading start to the next heading of the same or a higher level,
// outside code blocks.
func docPart(t *testing.T, name, start string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	level := len(strings.Fields(start)[0])
	heading := regexp.MustCompile(fmt.Sprintf(`^#{1,%d} `, level))
	from, in := -1, false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "```"):
			in = !in
		case l == start && from < 0:
			from = i
		case from >= 0 && !in && heading.MatchString(l):
			return strings.Join(lines[from:i], "\n")
		}
	}
	if from < 0 {
		t.Fatalf("%s has no heading %q (this test runs its snippets; update it)", name, start)
	}
	return strings.Join(lines[from:], "\n")
}

// blocks are a markdown text's fenced blocks with the info string lang.
func blocks(text, lang string) []string {
	var out []string
	for _, b := range strings.Split(text, "```"+lang+"\n")[1:] {
		body, _, _ := strings.Cut(b, "```")
		out = append(out, body)
	}
	return out
}

// TestAdoptionDocs runs README's adoption section as a user copies it,
// in a module in a git repository whose origin/main is its first commit,
// with the built guardvet first on PATH: write the baseline, re-run
// clean, add a bug (only it is reported, by both the baseline and
// -new-from-rev), then README's configuration file. docs/adoption.md
// shows the same commands; its full configuration file must be accepted,
// and the errors it shows are what guardvet prints.
func TestAdoptionDocs(t *testing.T) {
	t.Parallel()
	readme := docPart(t, "README.md", "### Adopting guardvet on existing code")
	page := docPart(t, "docs/adoption.md", "# Adopting guardvet on existing code")
	sh, yaml := blocks(readme, "sh"), blocks(readme, "yaml")
	if len(sh) != 1 || len(yaml) != 1 {
		t.Fatalf("README's adoption section has %d sh and %d yaml blocks, want 1 and 1 (this test runs them; update it)", len(sh), len(yaml))
	}
	if pageSh := blocks(page, "sh"); len(pageSh) == 0 || pageSh[0] != sh[0] {
		t.Errorf("docs/adoption.md's first sh block is not README's:\n%v", pageSh)
	}
	lines := strings.Split(strings.TrimSpace(sh[0]), "\n")
	if len(lines) != 3 {
		t.Fatalf("README's adoption block has %d commands, want 3 (write, read, new-from-rev)", len(lines))
	}
	dir := writeModule(t)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	gitIn(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	path := filepath.Dir(guardvet) + string(os.PathListSeparator) + os.Getenv("PATH")
	sh1 := func(line string) (string, string, int) { return runWithPath(t, dir, path, "bash", "-c", line) }

	if _, stderr, code := sh1(lines[0]); code != 0 || !strings.Contains(stderr, "1 finding") {
		t.Fatalf("%s: exit %d\n%s", lines[0], code, stderr)
	}
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "baseline")
	if stdout, stderr, code := sh1(lines[1]); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("%s: exit %d, want 0 and nothing printed\n%s%s", lines[1], code, stdout, stderr)
	}
	lib := filepath.Join(dir, "lib", "lib.go")
	body, _ := os.ReadFile(lib)
	os.WriteFile(lib, append(body, "\nfunc Peek(c *C) int { return c.N }\n"...), 0o644)
	for _, line := range lines[1:] {
		if stdout, stderr, code := sh1(line); code != 1 || strings.Count(stdout, "\n") != 1 || !strings.HasPrefix(stdout, "lib/lib.go:13:") {
			t.Errorf("%s after a new bug: exit %d, want 1 and only it\n%s%s", line, code, stdout, stderr)
		}
	}

	// The page's baseline file is one guardvet reads, and its stale
	// entry is what guardvet prints once the finding is fixed.
	pageJSON := blocks(page, "json")
	if len(pageJSON) != 1 {
		t.Fatalf("docs/adoption.md has %d json blocks, want 1 (the baseline file)", len(pageJSON))
	}
	os.WriteFile(filepath.Join(dir, "page-baseline.json"), []byte(pageJSON[0]), 0o644)
	if _, stderr, code := runWithPath(t, dir, path, "guardvet", "-baseline", "page-baseline.json", "./..."); code == 2 {
		t.Errorf("docs/adoption.md's baseline file is rejected:\n%s", stderr)
	}
	_, stale, _ := strings.Cut(page, "**Stale entries.**")
	shownStale := strings.TrimSpace(blocks(stale, "")[0])
	use := filepath.Join(dir, "use", "use.go")
	before, _ := os.ReadFile(use)
	os.WriteFile(use, []byte(useFixed), 0o644)
	_, stderr, _ := sh1(lines[1])
	pattern := regexp.QuoteMeta(shownStale)
	pattern = strings.ReplaceAll(pattern, `; \.\.\. `, `; .* `)
	if !regexp.MustCompile("(?s)^" + pattern + "$").MatchString(strings.TrimSpace(stderr)) {
		t.Errorf("the fixed finding's stale entry: guardvet printed\n%s\ndocs/adoption.md shows\n%s", stderr, shownStale)
	}
	os.WriteFile(use, before, 0o644)
	prCommand, _, _ := strings.Cut(lines[2], "#")
	if pageSh := blocks(page, "sh"); len(pageSh) < 2 || strings.TrimSpace(pageSh[1]) != strings.TrimSpace(prCommand) {
		t.Errorf("docs/adoption.md's pull request command is not README's %q: %q", prCommand, pageSh)
	}

	// README's configuration file: gen/ excluded, inference in legacy/
	// only, the baseline read.
	extra := map[string]string{
		".guardvet.yaml":      yaml[0],
		"internal/gen/gen.go": "package gen\n\nimport \"example.com/m/lib\"\n\nfunc Peek(c *lib.C) int { return c.N }\n",
		"legacy/reg.go":       strings.Replace(unannotatedModule["reg/reg.go"], "package reg", "package legacy", 1),
		"app/reg.go":          strings.Replace(unannotatedModule["reg/reg.go"], "package reg", "package app", 1),
	}
	for name, text := range extra {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	stdout, stderr, code := runWithPath(t, dir, path, "guardvet", "./...")
	if code != 1 || !strings.Contains(stdout, "legacy/reg.go:") || strings.Contains(stdout, "app/reg.go") || strings.Contains(stdout, "internal/gen") || strings.Contains(stdout, "use/use.go") {
		t.Errorf("README's .guardvet.yaml: exit %d, want legacy's inference and lib's new bug, not app's, gen's or the baselined use's\n%s%s", code, stdout, stderr)
	}

	// The page's full example is accepted.
	pageYAML := blocks(page, "yaml")
	if len(pageYAML) == 0 {
		t.Fatal("docs/adoption.md has no yaml block")
	}
	os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte(pageYAML[0]), 0o644)
	if _, stderr, code := runWithPath(t, dir, path, "guardvet", "./..."); code == 2 {
		t.Errorf("docs/adoption.md's .guardvet.yaml is rejected:\n%s", stderr)
	}

	// The errors the page shows, from the files that give them.
	_, errs, _ := strings.Cut(page, "**Errors.**")
	shown := strings.Split(strings.TrimSpace(blocks(errs, "")[0]), "\n")
	inputs := []string{"disable: [unusedignore]\noverides:\n  - paths: [gen]\n", "disable: [guardby]\n", "flags:\n  noblock.all: maybe\n"}
	if len(shown) != len(inputs) {
		t.Fatalf("docs/adoption.md shows %d errors; this test makes %d", len(shown), len(inputs))
	}
	for i, in := range inputs {
		os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte(in), 0o644)
		if _, stderr, code := runWithPath(t, dir, path, "guardvet", "./..."); code != 2 || strings.TrimSpace(stderr) != shown[i] {
			t.Errorf("%q: exit %d, printed %q; docs/adoption.md shows %q", in, code, strings.TrimSpace(stderr), shown[i])
		}
	}
}
