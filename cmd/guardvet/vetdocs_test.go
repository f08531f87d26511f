package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fixModule is a module with one finding that has a suggested fix: the
// early return keeps c.mu locked, and the fix unlocks it before.
var fixModule = map[string]string{
	"go.mod": "module example.com/fx\n\ngo 1.26\n",
	"conn/conn.go": `package conn

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type Conn struct {
	mu     sync.Mutex
	closed bool   //guard:by mu
	buf    []byte //guard:by mu
}

func (c *Conn) Send(b []byte) error {
	c.mu.Lock()
	if c.closed {
		return errClosed
	}
	c.buf = append(c.buf, b...)
	c.mu.Unlock()
	return nil
}
`,
}

// TestGoVetFixDiffDocumented runs the ```sh block of docs/rules/guardedby.md
// that shows and applies suggested fixes, a line at a time with bash, the
// built guardvet first on PATH: the diff lines must print the fix and
// leave the file alone, the -fix line must write it. go vet takes -diff
// only with -fix ("go vet -diff flag requires -fix"), so the block must
// spell it go vet -fix -diff, and no page, nor guardvet -help, may show a
// go vet command line with -diff and without -fix.
func TestGoVetFixDiffDocumented(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules", "guardedby.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\nSuggested fixes")
	_, block, ok2 := strings.Cut(after, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/rules/guardedby.md has no ```sh block after \"Suggested fixes\" (this test runs it; update it)")
	}
	if !regexp.MustCompile(`(?m)^go vet -fix -diff -vettool=\$\(command -v guardvet\) `).MatchString(block) {
		t.Errorf("the block has no `go vet -fix -diff -vettool=$(command -v guardvet) ...` line:\n%s", block)
	}
	dir := t.TempDir()
	for name, body := range fixModule {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const fixed = "\tif c.closed {\n\t\tc.mu.Unlock()\n\t\treturn errClosed\n"
	src := filepath.Join(dir, "conn", "conn.go")
	path := filepath.Dir(guardvet) + string(os.PathListSeparator) + os.Getenv("PATH")
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		stdout, stderr, code := runWithPath(t, dir, path, "bash", "-c", line)
		body, _ := os.ReadFile(src)
		diff := strings.Contains(line, " -diff ")
		switch {
		case diff && (!strings.Contains(stdout, "+\t\tc.mu.Unlock()") || string(body) != fixModule["conn/conn.go"]):
			t.Errorf("%s: exit %d; want the fix as a diff and the file unchanged\n%s%s", line, code, stdout, stderr)
		case !diff && strings.Contains(line, " -fix ") && (code != 0 || !strings.Contains(string(body), fixed)):
			t.Errorf("%s: exit %d; want 0 and the fix written, got\n%s%s%s", line, code, body, stdout, stderr)
		}
		n++
	}
	if n < 3 {
		t.Errorf("the block has %d lines, want the three that show and apply fixes:\n%s", n, block)
	}

	// No page, nor the usage, has a go vet command line with -diff and
	// without -fix.
	command := regexp.MustCompile("go vet(?: +-[^\\s`]+)+") // go vet and its flags
	tool := strings.NewReplacer("$(command -v guardvet)", "GUARDVET", "$(which guardvet)", "GUARDVET")
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	rules, _ := filepath.Glob(filepath.Join("..", "..", "docs", "rules", "*.md"))
	help, _, _ := run(t, dir, guardvet, "-help")
	texts := map[string]string{"guardvet -help": help}
	for _, page := range append(append(pages, rules...), filepath.Join("..", "..", "README.md")) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		texts[page] = string(data)
	}
	for name, text := range texts {
		for _, m := range command.FindAllString(tool.Replace(text), -1) {
			if flags := strings.Fields(m); slices.Contains(flags, "-diff") && !slices.Contains(flags, "-fix") {
				t.Errorf("%s: %q: go vet takes -diff only with -fix (go vet -fix -diff -vettool=...)", name, m)
			}
		}
	}
}

// runWithPath runs a command in dir with PATH set to path, for it and for
// finding it; the test's own environment is left alone, so tests using it
// can run in parallel.
func runWithPath(t *testing.T, dir, path, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := name
	for _, d := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			bin = filepath.Join(d, name)
			break
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PATH="+path)
	return runCmd(t, cmd, dir)
}
