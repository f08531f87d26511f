package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// useGo is writeModule's use/use.go in the states TestBaseline takes it
// through.
const (
	useReformatted = `// Package use uses lib.
package use

import (
	"example.com/m/lib"
)

// Good locks.
func Good(c *lib.C) {
	c.Lock()

	c.N++

	c.Unlock()
}

func Bad(c *lib.C) int {
		return c.N
}
`
	useNewBug = useReformatted + `
func Worse(c *lib.C) { c.N = 0 }
`
	useFixed = `package use

import "example.com/m/lib"

func Good(c *lib.C) {
	c.Lock()
	c.N++
	c.Unlock()
}

func Bad(c *lib.C) int {
	c.Lock()
	defer c.Unlock()
	return c.N
}
`
)

// TestBaseline is the adoption path on a module with a finding: write a
// baseline, re-run clean in every format, reformat the file, add a bug,
// fix the baselined finding.
func TestBaseline(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	use := filepath.Join(dir, "use", "use.go")
	if _, stderr, code := run(t, dir, guardvet, "-baseline", "guardvet-baseline.json", "-write-baseline", "./..."); code != 0 || !strings.Contains(stderr, "wrote guardvet-baseline.json: 1 finding") {
		t.Fatalf("-write-baseline: exit %d\n%s", code, stderr)
	}
	base := []string{"-baseline", "guardvet-baseline.json"}
	clean := func(step string, args ...string) {
		t.Helper()
		if stdout, stderr, code := run(t, dir, guardvet, append(append(base, args...), "./...")...); code != 0 || (stdout != "" && len(args) == 0) || stderr != "" {
			t.Errorf("%s %v: exit %d, want 0 and nothing printed\n%s%s", step, args, code, stdout, stderr)
		}
	}
	clean("baselined")
	clean("baselined", "-json")
	stdout, _, _ := run(t, dir, guardvet, append(base, "-json", "./...")...)
	if strings.TrimSpace(stdout) != "{}" {
		t.Errorf("-json with the finding baselined: want {}, got\n%s", stdout)
	}
	stdout, _, _ = run(t, dir, guardvet, append(base, "-sarif", "./...")...)
	if !strings.Contains(stdout, `"results": []`) {
		t.Errorf("-sarif with the finding baselined: want no results\n%s", stdout)
	}

	os.WriteFile(use, []byte(useReformatted), 0o644)
	clean("reformatted elsewhere in the file")

	os.WriteFile(use, []byte(useNewBug), 0o644)
	stdout, stderr, code := run(t, dir, guardvet, append(base, "./...")...)
	if code != 1 || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "use/use.go:21:26: c.N written") {
		t.Errorf("a new bug: exit %d, want 1 and only the new finding\n%s%s", code, stdout, stderr)
	}

	os.WriteFile(use, []byte(useFixed), 0o644)
	stdout, stderr, code = run(t, dir, guardvet, append(base, "./...")...)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "1 entry no finding matches any more") || !strings.Contains(stderr, "use/use.go:12: c.N read") {
		t.Errorf("the baselined finding fixed: exit %d, want 0 and its entry reported stale\n%s%s", code, stdout, stderr)
	}
	// A run that does not check use does not call its entry stale, and
	// rewriting the baseline from it keeps the entry.
	if _, stderr, _ := run(t, dir, guardvet, append(base, "./lib")...); stderr != "" {
		t.Errorf("a run of ./lib alone: %s", stderr)
	}
	run(t, dir, guardvet, append(base, "-write-baseline", "./lib")...)
	if b, _ := os.ReadFile(filepath.Join(dir, "guardvet-baseline.json")); !strings.Contains(string(b), `"file":"use/use.go"`) {
		t.Errorf("-write-baseline ./lib dropped use's entry:\n%s", b)
	}
	run(t, dir, guardvet, append(base, "-write-baseline", "./...")...)
	if b, _ := os.ReadFile(filepath.Join(dir, "guardvet-baseline.json")); strings.Contains(string(b), `"file"`) {
		t.Errorf("-write-baseline after the fix kept an entry:\n%s", b)
	}
	// A deleted file's entries are stale too, whatever the run checks,
	// and rewriting drops them.
	os.WriteFile(use, []byte(useNewBug), 0o644)
	run(t, dir, guardvet, append(base, "-write-baseline", "./...")...)
	os.Remove(use)
	if _, stderr, code := run(t, dir, guardvet, append(base, "./lib")...); code != 0 || !strings.Contains(stderr, "2 entries no finding matches any more") {
		t.Errorf("use.go deleted: exit %d, want its two entries reported stale\n%s", code, stderr)
	}
	run(t, dir, guardvet, append(base, "-write-baseline", "./lib")...)
	if b, _ := os.ReadFile(filepath.Join(dir, "guardvet-baseline.json")); strings.Contains(string(b), "use/use.go") {
		t.Errorf("-write-baseline kept a deleted file's entries:\n%s", b)
	}
}

// TestBaselineFingerprintIsSARIFs: the baseline matches findings by the
// fingerprint SARIF's partialFingerprints carries.
func TestBaselineFingerprintIsSARIFs(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	run(t, dir, guardvet, "-baseline", "b.json", "-write-baseline", "./...")
	stdout, _, _ := run(t, dir, guardvet, "-sarif", "./...")
	var b struct {
		Findings []struct{ Fingerprint string }
	}
	data, _ := os.ReadFile(filepath.Join(dir, "b.json"))
	if err := json.Unmarshal(data, &b); err != nil || len(b.Findings) != 1 {
		t.Fatalf("baseline: %v\n%s", err, data)
	}
	if fp := fingerprints(t, stdout); fp != b.Findings[0].Fingerprint {
		t.Errorf("SARIF's fingerprint %s, the baseline's %s", fp, b.Findings[0].Fingerprint)
	}
}

// TestBaselineErrors: a missing or malformed baseline is an error that
// names it and says what to do; -write-baseline needs a file.
func TestBaselineErrors(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	if _, stderr, code := run(t, dir, guardvet, "-baseline", "nosuch.json", "./..."); code != 2 || !strings.Contains(stderr, "nosuch.json does not exist; guardvet -write-baseline writes it") {
		t.Errorf("missing baseline: exit %d\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{"), 0o644)
	if _, stderr, code := run(t, dir, guardvet, "-baseline", "bad.json", "./..."); code != 2 || !strings.Contains(stderr, "bad.json: not a guardvet baseline") {
		t.Errorf("malformed baseline: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-write-baseline", "./..."); code != 2 || !strings.Contains(stderr, "name it with -baseline FILE") {
		t.Errorf("-write-baseline with no file: exit %d\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "use", "broken.go"), []byte("package use\n\nvar X int = \"s\"\n"), 0o644)
	if _, stderr, code := run(t, dir, guardvet, "-baseline", "b.json", "-write-baseline", "./..."); code != 2 || !strings.Contains(stderr, "not written: the run had errors") {
		t.Errorf("-write-baseline on a broken build: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.json")); err == nil {
		t.Errorf("-write-baseline wrote a baseline from a broken build")
	}
}

// gitIn runs git in dir with a fixed identity.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestNewFromRev: in a repository with findings, -new-from-rev reports
// only those on lines changed since the revision, or whose related
// positions are.
func TestNewFromRev(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	if stdout, stderr, code := run(t, dir, guardvet, "-new-from-rev", "HEAD", "./..."); code != 0 || stdout != "" {
		t.Errorf("nothing changed: exit %d, want 0 and nothing\n%s%s", code, stdout, stderr)
	}
	lib := filepath.Join(dir, "lib", "lib.go")
	body, _ := os.ReadFile(lib)
	os.WriteFile(lib, append(body, "\nfunc Peek(c *C) int { return c.N }\n"...), 0o644)
	stdout, stderr, code := run(t, dir, guardvet, "-new-from-rev", "HEAD", "./...")
	if code != 1 || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "lib/lib.go:13:32: c.N read") {
		t.Errorf("one new bug in lib: exit %d, want only it\n%s%s", code, stdout, stderr)
	}
	// A new file, not yet added to git, is new code.
	os.WriteFile(filepath.Join(dir, "use", "more.go"), []byte("package use\n\nimport \"example.com/m/lib\"\n\nfunc More(c *lib.C) int { return c.N }\n"), 0o644)
	if stdout, _, _ := run(t, dir, guardvet, "-new-from-rev", "HEAD", "./..."); !strings.Contains(stdout, "use/more.go:5:") || strings.Contains(stdout, "use/use.go") {
		t.Errorf("an untracked file: want its finding and not use.go's\n%s", stdout)
	}
	if _, stderr, code := run(t, dir, guardvet, "-new-from-rev", "nosuch", "./..."); code != 2 || !strings.Contains(stderr, `"nosuch" is not a revision`) {
		t.Errorf("-new-from-rev nosuch: exit %d\n%s", code, stderr)
	}
}

// relatedModule has a lock-order inversion whose finding (line 15) has a
// related position on another line (14, where the first lock is taken).
var relatedModule = map[string]string{
	"go.mod": "module example.com/rel\n\ngo 1.26\n",
	"rel.go": `package rel

import "sync"

type A struct {
	mu sync.Mutex
	n  int //guard:by mu
}

type B struct{ mu sync.Mutex }

func AB(a *A, b *B) {
	defer a.mu.Unlock()
	a.mu.Lock()
	b.mu.Lock()
	b.mu.Unlock()
}

func BA(a *A, b *B) {
	b.mu.Lock()
	a.mu.Lock()
	a.mu.Unlock()
	b.mu.Unlock()
}
`,
}

// TestNewFromRevRelated: a finding counts as new when only a related
// position's line changed.
func TestNewFromRevRelated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range relatedModule {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	stdout, _, _ := run(t, dir, guardvet, "./...")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "rel.go:15:") || !strings.HasPrefix(strings.TrimSpace(lines[1]), "rel.go:14:") {
		t.Fatalf("the fixture has changed: want a finding at line 15 related to line 14\n%s", stdout)
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	body := strings.Replace(relatedModule["rel.go"], "\ta.mu.Lock()\n\tb.mu.Lock()", "\ta.mu.Lock() // first a\n\tb.mu.Lock()", 1)
	os.WriteFile(filepath.Join(dir, "rel.go"), []byte(body), 0o644)
	if stdout, _, code := run(t, dir, guardvet, "-new-from-rev", "HEAD", "./..."); code != 1 || !strings.HasPrefix(stdout, "rel.go:15:") {
		t.Errorf("only the related line changed: exit %d, want the finding\n%s", code, stdout)
	}
}

// TestBaselineWithCache: findings replayed from the result cache match
// the baseline as fresh ones do, in text and -json, cold, warm and after
// an edit.
func TestBaselineWithCache(t *testing.T) {
	dir := writeModule(t)
	run(t, dir, guardvet, "-baseline", "b.json", "-write-baseline", "./...")
	os.WriteFile(filepath.Join(dir, "use", "use.go"), []byte(useNewBug), 0o644)
	want := map[string]string{}
	for _, format := range []string{"-json=false", "-json"} {
		want[format], _, _ = run(t, dir, guardvet, "-baseline", "b.json", format, "./...")
	}
	t.Setenv("GUARDVETCACHE", t.TempDir())
	for _, step := range []string{"cold", "warm", "edited"} {
		if step == "edited" {
			lib := filepath.Join(dir, "lib", "lib.go")
			body, _ := os.ReadFile(lib)
			os.WriteFile(lib, append(body, "\n// A comment.\n"...), 0o644)
		}
		for _, format := range []string{"-json=false", "-json"} {
			got, stderr, _ := run(t, dir, guardvet, "-baseline", "b.json", format, "./...")
			if got != want[format] || !strings.Contains(got, "Worse") || strings.Contains(got, "Bad") {
				t.Errorf("%s run, %s, with the cache: got\n%s%s\nwant, as without the cache, only the new finding:\n%s", step, format, got, stderr, want[format])
			}
		}
	}
}

// TestNewFromMergeBase: on a branch behind main, -new-from-merge-base
// main reports the branch's new finding only (which lines it counts from
// is gitdiff's TestMergeBase); giving it with -new-from-rev is an error.
func TestNewFromMergeBase(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	gitIn(t, dir, "checkout", "-q", "-b", "feature")
	os.WriteFile(filepath.Join(dir, "use", "more.go"), []byte("package use\n\nimport \"example.com/m/lib\"\n\nfunc More(c *lib.C) int { return c.N }\n"), 0o644)
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "feature")
	gitIn(t, dir, "checkout", "-q", "main")
	lib := filepath.Join(dir, "lib", "lib.go")
	body, _ := os.ReadFile(lib)
	os.WriteFile(lib, append(body, "\nfunc Peek(c *C) int { return c.N }\n"...), 0o644)
	gitIn(t, dir, "commit", "-q", "-am", "main moves on")
	gitIn(t, dir, "checkout", "-q", "feature")
	stdout, stderr, code := run(t, dir, guardvet, "-new-from-merge-base", "main", "./...")
	if code != 1 || strings.Count(stdout, "\n") != 1 || !strings.HasPrefix(stdout, "use/more.go:5:") {
		t.Errorf("-new-from-merge-base main: exit %d, want only the branch's finding\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-new-from-merge-base", "main", "-new-from-rev", "main", "./..."); code != 2 || !strings.Contains(stderr, "give one") {
		t.Errorf("both flags: exit %d\n%s", code, stderr)
	}
}

// TestBaselineScope: a baseline entry is in a run's scope only if its
// rule ran on its file. A narrower run (a rule turned off by flag or
// configuration file, a bare -RULE naming another rule, -new-from-rev)
// neither calls the others stale nor drops them when it rewrites the
// file; the full run still finds an entry that went stale.
func TestBaselineScope(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/scope\n\ngo 1.26\n",
		"s/s.go": `package s

import "sync"

type S struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (s *S) get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *S) Read() int { return s.n }

func (s *S) Twice() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get()
}
`,
		"s/s_test.go": `package s

func peek(s *S) int { return s.n }
`,
		"p/p.go": `package p

import "sync"

type P struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (p *P) Read() int { return p.n }
`,
	}
	writeFiles(t, dir, files)
	b := []string{"-baseline", "b.json"}
	if _, stderr, code := run(t, dir, guardvet, append(b, "-write-baseline", "./...")...); code != 0 || !strings.Contains(stderr, "4 findings") {
		t.Fatalf("-write-baseline: exit %d, want 4 findings (guardedby in s, s's test and p; lockorder in s)\n%s", code, stderr)
	}
	entries := func() int {
		data, _ := os.ReadFile(filepath.Join(dir, "b.json"))
		return strings.Count(string(data), `"rule"`)
	}
	// Every way a run can be narrower than the one that wrote the
	// baseline: rules off or selected, packages not named, test files
	// left out, files excluded or a rule disabled in .guardvet.yaml, lines
	// not changed.
	narrow := []struct {
		args   []string
		config string
	}{
		{args: []string{"-guardedby=false", "./..."}},
		{args: []string{"-lockorder", "./..."}}, // runs lockorder alone
		{args: []string{"./s"}},
		{args: []string{"./p"}},
		{args: []string{"-test=false", "./..."}},
		{args: []string{"-new-from-rev", "HEAD", "./..."}},
		{args: []string{"./..."}, config: "disable: [lockorder]\n"},
		{args: []string{"./..."}, config: "overrides:\n  - paths: [p, s/s_test.go]\n    exclude: true\n"},
		{args: []string{"./..."}, config: "overrides:\n  - paths: [s]\n    disable: [guardedby]\n"},
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base")
	for _, n := range narrow {
		if n.config != "" {
			os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte(n.config), 0o644)
		}
		if _, stderr, code := run(t, dir, guardvet, append(b, n.args...)...); code != 0 || strings.Contains(stderr, "no finding matches") {
			t.Errorf("%v %q: exit %d, want 0 and no entry called stale\n%s", n.args, n.config, code, stderr)
		}
		run(t, dir, guardvet, append(append(b, "-write-baseline"), n.args...)...)
		if got := entries(); got != 4 {
			t.Errorf("%v %q -write-baseline: %d entries left, want 4", n.args, n.config, got)
		}
		os.Remove(filepath.Join(dir, ".guardvet.yaml"))
	}
	// Fixed: the full run calls the guardedby entry stale, and only it.
	src, _ := os.ReadFile(filepath.Join(dir, "s/s.go"))
	os.WriteFile(filepath.Join(dir, "s/s.go"), []byte(strings.Replace(string(src), "func (s *S) Read() int { return s.n }", "func (s *S) Read() int { return s.get() }", 1)), 0o644)
	if _, stderr, _ := run(t, dir, guardvet, append(b, "./...")...); !strings.Contains(stderr, "1 entry no finding matches any more") || !strings.Contains(stderr, "(guardedby)") {
		t.Errorf("after the fix: want the guardedby entry reported stale\n%s", stderr)
	}
	if _, stderr, _ := run(t, dir, guardvet, append(b, "-guardedby=false", "./...")...); strings.Contains(stderr, "no finding matches") {
		t.Errorf("after the fix, -guardedby=false: the guardedby entry is out of scope, not stale\n%s", stderr)
	}
}
