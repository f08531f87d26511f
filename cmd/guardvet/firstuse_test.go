package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a new user meets on a first run, each on a real module in a
// temporary git repository, with the built binary and the real go vet:
// what a bare rule flag does, the hint when nothing checked has a
// directive, the error outside a module, and the shape of a finding (its
// range, its related positions under go vet, the //guard:order line a
// lock-order cycle asks for).

// inversionSrc has a lock-order inversion between two locks of one type,
// and no directive.
const inversionSrc = `package stats

import "sync"

type Store struct {
	mu, statsMu sync.Mutex
	n, hits     int
}

func (s *Store) Put() {
	s.mu.Lock()
	s.statsMu.Lock()
	s.hits++
	s.statsMu.Unlock()
	s.n++
	s.mu.Unlock()
}

func (s *Store) Stats() int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n + s.hits
}
`

// gitModule writes files as a module in a new git repository with one
// commit, and returns its directory.
func gitModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "start")
	return dir
}

// TestRuleFlagsSelect: -NAME runs only the rules named, as go vet does,
// standalone and under go vet, and -help says so; -NAME=false turns one
// off and keeps the others.
func TestRuleFlagsSelect(t *testing.T) {
	t.Parallel()
	dir := gitModule(t, map[string]string{
		"go.mod": "module example.com/sel\n\ngo 1.26\n",
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
	})
	rules := func(out string) string {
		var got []string
		for _, r := range []string{"(guardedby)", "(lockorder)"} {
			if strings.Contains(out, r) {
				got = append(got, r)
			}
		}
		return strings.Join(got, " ")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "(guardedby) (lockorder)"},
		{[]string{"-lockorder"}, "(lockorder)"},
		{[]string{"-lockorder=true"}, "(lockorder)"},
		{[]string{"-lockorder=false"}, "(guardedby)"},
		{[]string{"-guardedby", "-lockorder"}, "(guardedby) (lockorder)"},
	} {
		stdout, stderr, code := run(t, dir, guardvet, append(c.args, "./...")...)
		if got := rules(stdout); code != 1 || got != c.want {
			t.Errorf("guardvet %v: exit %d, rules %q, want %q\n%s%s", c.args, code, got, c.want, stdout, stderr)
		}
	}
	// Under go vet: the same selection (go vet prints no rule names; the
	// lock-order finding is the one about a self-deadlock).
	_, stderr, _ := run(t, dir, "go", "vet", "-vettool="+guardvet, "-lockorder", "./...")
	if !strings.Contains(stderr, "already held here") || strings.Contains(stderr, "is not known to be held") {
		t.Errorf("go vet -lockorder: want the lock-order finding alone\n%s", stderr)
	}
	help, _, _ := run(t, dir, guardvet, "-help")
	for _, want := range []string{"Naming rules\nruns only those, as go vet does: -lockorder alone runs lockorder and no\nother rule.", "-NAME=false turns one rule off and keeps the others."} {
		if !strings.Contains(help, want) {
			t.Errorf("-help does not say %q\n%s", want, help)
		}
	}
}

// TestDailyFlagsFirst: -help lists the flags used every day before the
// profiling, cache and rule-option flags.
func TestDailyFlagsFirst(t *testing.T) {
	t.Parallel()
	help, _, _ := run(t, t.TempDir(), guardvet, "-help")
	at := func(flag string) int {
		i := strings.Index(help, "\n  -"+flag+"\n")
		if i < 0 {
			i = strings.Index(help, "\n  -"+flag+" ")
		}
		if i < 0 {
			t.Fatalf("-help does not list -%s\n%s", flag, help)
		}
		return i
	}
	last := 0
	for _, daily := range []string{"json", "sarif", "baseline", "new-from-rev", "config-file"} {
		last = max(last, at(daily))
	}
	for _, other := range []string{"cpuprofile", "memprofile", "cache", "config.summaries"} {
		if at(other) < last {
			t.Errorf("-help lists -%s before the daily flags", other)
		}
	}
}

// TestHintWithoutDirectives: a run that finds nothing in packages with no
// directive says so on stderr, with where to look further; the hint is
// not printed when a directive is there, when a finding is, or when
// .guardvet.yaml says hints: false.
func TestHintWithoutDirectives(t *testing.T) {
	t.Parallel()
	dir := gitModule(t, map[string]string{
		"go.mod":         "module example.com/stats\n\ngo 1.26\n",
		"stats/stats.go": inversionSrc,
	})
	const hint = "guardvet: no //guard: or checklocks directive in the 1 package checked"
	stdout, stderr, code := run(t, dir, guardvet, "./...")
	if code != 0 || stdout != "" || !strings.Contains(stderr, hint) || !strings.Contains(stderr, "-infer") || !strings.Contains(stderr, "-config.unannotated") || !strings.Contains(stderr, "guardvet races ./...") {
		t.Errorf("no directives: exit %d, want 0, no output and the hint on stderr\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, _ := run(t, dir, guardvet, "-json", "./..."); !json.Valid([]byte(stdout)) || !strings.Contains(stderr, hint) {
		t.Errorf("-json: want valid JSON on stdout and the hint on stderr\n%s%s", stdout, stderr)
	}
	// What the hint points at finds the inversion, with no hint.
	stdout, stderr, code = run(t, dir, guardvet, "-config.unannotated", "./...")
	if code != 1 || !strings.Contains(stdout, "potential deadlock") || strings.Contains(stderr, hint) {
		t.Errorf("-config.unannotated: exit %d, want the inversion and no hint\n%s%s", code, stdout, stderr)
	}
	os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte("hints: false\n"), 0o644)
	if _, stderr, code := run(t, dir, guardvet, "./..."); code != 0 || stderr != "" {
		t.Errorf("hints: false: exit %d, want 0 and nothing on stderr\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte("hints: maybe\n"), 0o644)
	if _, stderr, code := run(t, dir, guardvet, "./..."); code != 2 || !strings.Contains(stderr, ".guardvet.yaml:1:8: want true or false") {
		t.Errorf("hints: maybe: exit %d, want 2 and the file's position\n%s", code, stderr)
	}
	os.Remove(filepath.Join(dir, ".guardvet.yaml"))
	// A directive anywhere in what was checked: silence means checked.
	src := strings.Replace(inversionSrc, "n, hits     int", "n, hits     int //guard:by mu", 1)
	os.WriteFile(filepath.Join(dir, "stats/stats.go"), []byte(src), 0o644)
	if _, stderr, _ := run(t, dir, guardvet, "-lockorder", "./..."); strings.Contains(stderr, hint) {
		t.Errorf("an annotated package: the hint is printed\n%s", stderr)
	}
}

// TestLockOrderGivesTheLine: a lock-order cycle's message gives the
// //guard:order line to write, and writing it turns the cycle into the
// declared order's violation, at the other end.
func TestLockOrderGivesTheLine(t *testing.T) {
	t.Parallel()
	dir := gitModule(t, map[string]string{
		"go.mod":         "module example.com/stats\n\ngo 1.26\n",
		"stats/stats.go": inversionSrc,
	})
	const line = "//guard:order mu statsMu"
	stdout, _, _ := run(t, dir, guardvet, "-config.unannotated", "./...")
	if !strings.Contains(stdout, "stats/stats.go:12:2: potential deadlock") || !strings.Contains(stdout, "declare it on type Store: "+line) {
		t.Fatalf("want the cycle with the line to write on Store\n%s", stdout)
	}
	src := strings.Replace(inversionSrc, "type Store struct", line+"\ntype Store struct", 1)
	os.WriteFile(filepath.Join(dir, "stats/stats.go"), []byte(src), 0o644)
	stdout, _, code := run(t, dir, guardvet, "./...")
	if code != 1 || strings.Contains(stdout, "potential deadlock") || !strings.Contains(stdout, "stats/stats.go:23:2: lock order violation: Store.mu acquired while Store.statsMu is held") {
		t.Errorf("with the line written: exit %d, want the violation in Stats alone\n%s", code, stdout)
	}
}

// TestFindingShape: -json's end is where the code the finding is about
// ends, SARIF's region has it too, and go vet prints a finding's related
// positions in its message, not as lines of their own.
func TestFindingShape(t *testing.T) {
	t.Parallel()
	dir := gitModule(t, map[string]string{
		"go.mod":         "module example.com/stats\n\ngo 1.26\n",
		"stats/stats.go": inversionSrc,
	})
	stdout, _, _ := run(t, dir, guardvet, "-config.unannotated", "-json", "./...")
	var tree map[string]map[string][]struct {
		Posn, End string
		Related   []struct{ Posn, End string }
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	d := tree["example.com/stats/stats"]["lockorder"]
	// s.statsMu.Lock() at 12:2 ends at 12:18; s.mu.Lock() at 11:2 at 11:13.
	if len(d) != 1 || !strings.HasSuffix(d[0].Posn, "stats.go:12:2") || !strings.HasSuffix(d[0].End, "stats.go:12:18") ||
		len(d[0].Related) != 1 || !strings.HasSuffix(d[0].Related[0].End, "stats.go:11:13") {
		t.Errorf("-json: want the finding at 12:2 ending at 12:18, related ending at 11:13\n%s", stdout)
	}
	stdout, _, _ = run(t, dir, guardvet, "-config.unannotated", "-sarif", "./...")
	if !strings.Contains(stdout, `"endLine": 12,`) || !strings.Contains(stdout, `"endColumn": 18`) {
		t.Errorf("-sarif: want the region to end at 12:18\n%s", stdout)
	}
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+guardvet, "-config.unannotated", "./...")
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	var findings []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") {
			findings = append(findings, l)
		}
	}
	if code != 1 || len(findings) != 1 || !strings.HasSuffix(findings[0], "; related: stats.go:11:2: Store.mu locked here") {
		t.Errorf("go vet: exit %d, want one line with the related position in it\n%s", code, stderr)
	}
}

// TestOutsideAModule: outside a module, the go command's message and
// what to do, without go/packages' wrapping.
func TestOutsideAModule(t *testing.T) {
	t.Parallel()
	const what = "guardvet: packages are loaded as go build loads them: run guardvet in a module (a directory with go.mod, or below one), or name its directory with -C DIR\n"
	// In a git repository with no go.mod, the go command suggests go mod
	// init; its further lines keep its own indentation.
	dir := gitModule(t, map[string]string{"x.go": "package x\n"})
	stdout, stderr, code := run(t, dir, guardvet, ".")
	want := "guardvet: go: cannot find main module, but found .git/config in " + dir + "\n\tto create a module there, run:\n\tgo mod init\n" + what
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("in a git repository with no go.mod: exit %d, stderr\n%s\nwant exit 2 and\n%s", code, stderr, want)
	}
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644)
	stdout, stderr, code = run(t, dir, guardvet, ".")
	want = "guardvet: go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n" + what
	if code != 2 || stdout != "" || stderr != want {
		t.Errorf("outside a module: exit %d, stderr\n%s\nwant exit 2 and\n%s", code, stderr, want)
	}
	for _, s := range []string{"err:", "exit status", "stderr:"} {
		if strings.Contains(stderr, s) {
			t.Errorf("the error leaks go/packages' wrapping %q", s)
		}
	}
}
