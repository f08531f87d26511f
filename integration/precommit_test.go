//go:build integration

package integration

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	// precommitUserModule is the module path of the throwaway repository.
	precommitUserModule = "example.com/precommitdemo"
	// precommitRaceMarker is on the racy line of testdata/precommit/racy.
	precommitRaceMarker = "the race:"
)

// TestPrecommit runs guardvet's pre-commit hook (.pre-commit-hooks.yaml at
// the repository root) with the real pre-commit, through real `git commit`s:
//
//	apt-get update && apt-get install -y pre-commit   # Debian's 3.0.4 is fine
//	go test -tags integration -run Precommit -v -timeout 20m ./integration/
//
// Which guardvet is tested. pre-commit clones the hook repository at a rev,
// so the test gives it a git repository: a snapshot of this working tree,
// that is every file `git ls-files --cached --others --exclude-standard`
// lists (tracked and untracked, minus what .gitignore excludes, so no bin/
// and no .git), committed in a fresh repository and tagged. In CI, which
// checks out a fresh clone of main, the snapshot is exactly HEAD; on a
// developer's machine it is the uncommitted work as well, so the test can be
// run before committing.
//
// The user's side is a throwaway Go module in its own git repository, with
// the .pre-commit-config.yaml of docs/pre-commit.md, taken from the page:
// its first config with the guardvet-changed line added to its hooks, with
// the substitutions the page gives for a checkout, repo: the local path of
// that snapshot and rev: the output of the page's `git -C ... rev-parse
// HEAD`. After the page's `pre-commit install` (the first commit then clones
// the snapshot and runs `go install ./...` in it), three commits of
// counter/counter.go (testdata/precommit/{clean,racy,fixed}):
//
//	(a) a //guard:by mu field used under the lock: the commit succeeds;
//	(b) a new method that reads it without the lock: the commit is rejected
//	    and the output has guardvet's diagnostic, file:line and message, and
//	    the lines of the output the page shows;
//	(c) the method fixed: the commit succeeds.
//
// Then a second repository with two Go modules and no go.mod at its root
// (precommitTwoModules), with the page's config for several modules, with
// the same substitutions: guardvet-changed gets the staged files of both
// modules in one run and checks each in its own module, and the
// whole-module hook runs per module with -C; racy code in both modules is
// rejected with both findings and the output the page shows, the fix is
// accepted.
//
// Then, as the subtest "baseline", a third repository (precommitBaseline):
// a module with a finding committed before the hooks, adopted with the
// baseline of the page's "Adopting on existing code: a baseline", its
// .guardvet.yaml and commands run as written: a change that adds no
// finding passes both hooks, a new finding is rejected with only it
// printed; the same with -baseline in the hooks' args instead, and the
// fix of the baselined finding passes, its stale entry printed.
//
// Environment. PRE_COMMIT_HOME is a temporary directory, so pre-commit's
// cache (~/.cache/pre-commit) is not touched and every run installs the
// hook afresh; a reusable cache would not help, since each run's snapshot
// is a new repository at a new path. pre-commit runs `go install` with a
// GOPATH of its own and deletes its pkg/ afterwards, so the test sets
// GOMODCACHE and GOCACHE explicitly to the values `go env` gives here: the
// module cache and the build cache are shared with the rest of the
// machine, and anything missing is fetched through GOPROXY. GOPROXY, GOFLAGS
// and the rest of the environment pass through unchanged. Git runs with an
// empty global configuration (GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM), so a
// core.hooksPath or commit signing set up on the machine does not get in the
// way; user.name and user.email are set in each temporary repository.
// Inherited GIT_* and PRE_COMMIT_* variables and SKIP (which makes
// pre-commit skip hooks) are dropped.
func TestPrecommit(t *testing.T) {
	start := time.Now()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Fatalf("pre-commit is not on PATH (%v).\nInstall it with: apt-get update && apt-get install -y pre-commit\n"+
			"(Debian's package, 3.0.4, works; this test needs the real pre-commit)", err)
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH: %v", tool, err)
		}
	}

	root := precommitRepoRoot(t)
	testdata, err := filepath.Abs(filepath.Join("testdata", "precommit"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := precommitEnv(t, tmp)
	out, _ := precommitRun(t, env, tmp, time.Minute, "pre-commit", "--version")
	t.Logf("using %s", strings.TrimSpace(out))

	// The hook repository: a snapshot of this working tree.
	step := time.Now()
	hookRepo := filepath.Join(tmp, "guardvet")
	n := precommitSnapshot(t, env, root, hookRepo)
	precommitMust(t, env, hookRepo, time.Minute, "pre-commit", "validate-manifest", ".pre-commit-hooks.yaml")
	t.Logf("TIMING snapshot of %s (%d files) at %s: %v", root, n, hookRepo, time.Since(step).Round(time.Millisecond))
	docs := precommitFromDocs(t, env, root, hookRepo)

	// The user's repository: a Go module with the config, and the git hook.
	step = time.Now()
	user := filepath.Join(tmp, "user")
	precommitGitInit(t, env, user)
	precommitWrite(t, filepath.Join(user, "go.mod"), "module "+precommitUserModule+"\n\ngo 1.26\n")
	precommitWrite(t, filepath.Join(user, ".pre-commit-config.yaml"), docs.single)
	t.Logf(".pre-commit-config.yaml:\n%s", docs.single)
	precommitMust(t, env, user, time.Minute, "pre-commit", "validate-config", ".pre-commit-config.yaml")
	precommitMust(t, env, user, time.Minute, "bash", "-c", docs.install)
	t.Logf("TIMING %s: %v", docs.install, time.Since(step).Round(time.Millisecond))

	counter := filepath.Join(user, "counter", "counter.go")

	// (a) Clean code: the commit goes through, with the hook run and passed.
	step = time.Now()
	precommitCopy(t, filepath.Join(testdata, "clean", "counter.go"), counter)
	precommitMust(t, env, user, time.Minute, "git", "add", "-A")
	out, err = precommitRun(t, env, user, 15*time.Minute, "git", "commit", "-m", "counter: guarded by mu") // installs the hook: clone + go install ./...
	if err != nil {
		t.Fatalf("(a) committing clean code failed: %v\n%s", err, out)
	}
	precommitHookPassed(t, "(a)", out)
	precommitCommits(t, env, user, 1)
	t.Logf("TIMING (a) clean commit, with the hook's installation: %v", time.Since(step).Round(time.Millisecond))

	// (b) A read without the lock: the commit is rejected with the finding.
	step = time.Now()
	racy := filepath.Join(testdata, "racy", "counter.go")
	line := precommitMarkerLine(t, racy, precommitRaceMarker)
	precommitCopy(t, racy, counter)
	precommitMust(t, env, user, time.Minute, "git", "add", "-A")
	out, err = precommitRun(t, env, user, 10*time.Minute, "git", "commit", "-m", "counter: Peek")
	if err == nil {
		t.Fatalf("(b) the commit of a racy read was accepted; output:\n%s", out)
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		t.Fatalf("(b) git commit did not run: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`guardvet\.+Failed`).MatchString(out) || !strings.Contains(out, "- hook id: guardvet\n") {
		t.Errorf("(b) output does not show the guardvet hook failing:\n%s", out)
	}
	// The staged-files hook checks counter's package, given counter.go.
	if !regexp.MustCompile(`guardvet \(changed packages\)\.+Failed`).MatchString(out) || !strings.Contains(out, "- hook id: guardvet-changed") {
		t.Errorf("(b) output does not show the guardvet-changed hook failing:\n%s", out)
	}
	diag := regexp.MustCompile(`(?m)counter/counter\.go:` + strconv.Itoa(line) +
		`:\d+: c\.n read while c\.mu is not known to be held; //guard:by mu needs c\.mu read- or write-locked`)
	if !diag.MatchString(out) {
		t.Errorf("(b) output lacks guardvet's diagnostic for counter/counter.go:%d (want %s):\n%s", line, diag, out)
	}
	if !docs.singleShown.MatchString(out) {
		t.Errorf("(b) output lacks the lines docs/pre-commit.md shows (want %s):\n%s", docs.singleShown, out)
	}
	precommitCommits(t, env, user, 1) // nothing was committed
	t.Logf("TIMING (b) rejected commit: %v", time.Since(step).Round(time.Millisecond))

	// (c) The fix: the commit goes through.
	step = time.Now()
	precommitCopy(t, filepath.Join(testdata, "fixed", "counter.go"), counter)
	precommitMust(t, env, user, time.Minute, "git", "add", "-A")
	out, err = precommitRun(t, env, user, 10*time.Minute, "git", "commit", "-m", "counter: Peek, under mu")
	if err != nil {
		t.Fatalf("(c) committing the fix failed: %v\n%s", err, out)
	}
	precommitHookPassed(t, "(c)", out)
	precommitCommits(t, env, user, 2)
	t.Logf("TIMING (c) fixed commit: %v", time.Since(step).Round(time.Millisecond))

	precommitTwoModules(t, env, tmp, docs, testdata)

	t.Run("baseline", func(t *testing.T) {
		precommitBaseline(t, env, tmp, root, hookRepo, docs, testdata)
	})

	t.Logf("TIMING total: %v", time.Since(start).Round(time.Millisecond))
}

// precommitRepoRoot returns the root of this module, which must hold the
// hooks file.
func precommitRepoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatalf("reading this module's go.mod (%q): %v", gomod, err)
	}
	if !regexp.MustCompile(`(?m)^module github\.com/guardvet/guardvet\s*$`).Match(data) {
		t.Fatalf("%s is not guardvet's go.mod", gomod)
	}
	root := filepath.Dir(gomod)
	if _, err := os.Stat(filepath.Join(root, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf("the hooks file is missing: %v", err)
	}
	return root
}

// precommitEnv is the environment of every command the test runs: the
// test's own, minus variables that would change git's or pre-commit's
// behaviour, plus a private PRE_COMMIT_HOME, an empty git configuration,
// and the shared Go module and build caches.
func precommitEnv(t *testing.T, tmp string) []string {
	t.Helper()
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	modcache, gocache := goenv("GOMODCACHE"), goenv("GOCACHE")
	gitconfig := filepath.Join(tmp, "gitconfig")
	precommitWrite(t, gitconfig, "")

	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "GIT_"), strings.HasPrefix(name, "PRE_COMMIT"),
			name == "SKIP", name == "GOMODCACHE", name == "GOCACHE":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"),
		"PRE_COMMIT_COLOR=never",
		"GOMODCACHE="+modcache,
		"GOCACHE="+gocache,
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
	)
}

// precommitSnapshot copies the files of root that git lists (tracked and
// untracked, not ignored) into dir, commits them in a new repository there
// It returns the number of files.
func precommitSnapshot(t *testing.T, env []string, root, dir string) int {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir, cmd.Env = root, env
	list, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s (the test snapshots this repository's working tree with git): %v", root, err)
	}
	n := 0
	for _, name := range strings.Split(string(list), "\x00") {
		if name == "" || strings.HasSuffix(name, "/") { // a nested repository
			continue
		}
		if first, _, _ := strings.Cut(name, "/"); first == "bin" || first == ".git" {
			continue
		}
		src, dst := filepath.Join(root, filepath.FromSlash(name)), filepath.Join(dir, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) { // deleted in the working tree
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, dst); err != nil {
				t.Fatal(err)
			}
		case info.Mode().IsRegular():
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
				t.Fatal(err)
			}
		default:
			continue
		}
		n++
	}
	precommitGitInit(t, env, dir)
	precommitMust(t, env, dir, time.Minute, "git", "add", "-A")
	precommitMust(t, env, dir, time.Minute, "git", "commit", "-q", "-m", "snapshot of the guardvet working tree for TestPrecommit")
	return n
}

// precommitGitInit makes dir a new git repository with a committer.
func precommitGitInit(t *testing.T, env []string, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	precommitMust(t, env, dir, time.Minute, "git", "init", "-q", "-b", "main")
	for _, kv := range [][2]string{
		{"user.name", "guardvet integration test"},
		{"user.email", "precommit-test@guardvet.invalid"},
		{"commit.gpgsign", "false"},
		{"tag.gpgsign", "false"},
	} {
		precommitMust(t, env, dir, time.Minute, "git", "config", kv[0], kv[1])
	}
}

// precommitRun runs a command in dir and returns its combined output,
// which it also logs with the time taken.
func precommitRun(t *testing.T, env []string, dir string, timeout time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (timed out after %v)", err, timeout)
	}
	status := "ok"
	if err != nil {
		status = err.Error()
	}
	t.Logf("$ (cd %s && %s %s)  [%v, %s]\n%s", dir, name, strings.Join(args, " "), time.Since(start).Round(time.Millisecond), status, out)
	return string(out), err
}

// precommitMust is precommitRun for commands that must succeed.
func precommitMust(t *testing.T, env []string, dir string, timeout time.Duration, name string, args ...string) string {
	t.Helper()
	out, err := precommitRun(t, env, dir, timeout, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// precommitHookPassed checks that a commit's output shows the guardvet hook
// run and passed (not skipped, which is what happens without .go files).
func precommitHookPassed(t *testing.T, what, out string) {
	t.Helper()
	if !regexp.MustCompile(`guardvet\.+Passed`).MatchString(out) {
		t.Errorf("%s the guardvet hook did not run and pass; output:\n%s", what, out)
	}
	if !regexp.MustCompile(`guardvet \(changed packages\)\.+Passed`).MatchString(out) {
		t.Errorf("%s the guardvet-changed hook did not run and pass; output:\n%s", what, out)
	}
}

// precommitCommits checks how many commits the repository in dir has.
func precommitCommits(t *testing.T, env []string, dir string, want int) {
	t.Helper()
	out := precommitMust(t, env, dir, time.Minute, "git", "rev-list", "--count", "HEAD")
	if got := strings.TrimSpace(out); got != strconv.Itoa(want) {
		t.Errorf("the repository has %s commits, want %d", got, want)
	}
}

// precommitMarkerLine returns the 1-based line of file that contains marker.
func precommitMarkerLine(t *testing.T, file, marker string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, marker)
	return 0
}

func precommitCopy(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	precommitWrite(t, dst, string(data))
}

func precommitWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// precommitTwoModules is the second repository of TestPrecommit: two Go
// modules, alpha/ and beta/, and no go.mod at the root, with the config of
// docs/pre-commit.md's "A repository with several modules". The
// guardvet-changed hook gets the staged files of both modules at once and
// must check each in its own module; the whole-module hook runs once per
// module with -C.
//
//	(d) counter.go, clean, in both modules: the commit succeeds;
//	(e) the racy version in both: the commit is rejected, with the finding
//	    of each module;
//	(f) the fixed version in both: the commit succeeds.
func precommitTwoModules(t *testing.T, env []string, tmp string, docs precommitDocs, testdata string) {
	step := time.Now()
	repo := filepath.Join(tmp, "monorepo")
	precommitGitInit(t, env, repo)
	modules := []string{"alpha", "beta"}
	for _, m := range modules {
		precommitWrite(t, filepath.Join(repo, m, "go.mod"), "module example.com/"+m+"\n\ngo 1.26\n")
	}
	precommitWrite(t, filepath.Join(repo, ".pre-commit-config.yaml"), docs.multi)
	t.Logf("two modules, .pre-commit-config.yaml:\n%s", docs.multi)
	precommitMust(t, env, repo, time.Minute, "pre-commit", "validate-config", ".pre-commit-config.yaml")
	precommitMust(t, env, repo, time.Minute, "bash", "-c", docs.install)
	t.Logf("TIMING two modules: %s: %v", docs.install, time.Since(step).Round(time.Millisecond))

	put := func(version string) {
		for _, m := range modules {
			precommitCopy(t, filepath.Join(testdata, version, "counter.go"), filepath.Join(repo, m, "counter", "counter.go"))
		}
		precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	}
	passed := func(what, out string) {
		t.Helper()
		for _, hook := range []string{`guardvet \(changed packages\)`, `guardvet \(alpha\)`, `guardvet \(beta\)`} {
			if !regexp.MustCompile(hook + `\.+Passed`).MatchString(out) {
				t.Errorf("%s the hook %s did not run and pass; output:\n%s", what, hook, out)
			}
		}
	}

	// (d) Clean code in both modules.
	step = time.Now()
	put("clean")
	out, err := precommitRun(t, env, repo, 15*time.Minute, "git", "commit", "-m", "two counters")
	if err != nil {
		t.Fatalf("(d) committing clean code in two modules failed: %v\n%s", err, out)
	}
	passed("(d)", out)
	precommitCommits(t, env, repo, 1)
	t.Logf("TIMING (d) clean commit, two modules: %v", time.Since(step).Round(time.Millisecond))

	// (e) A racy read in each module: rejected, with both findings.
	step = time.Now()
	put("racy")
	line := precommitMarkerLine(t, filepath.Join(testdata, "racy", "counter.go"), precommitRaceMarker)
	out, err = precommitRun(t, env, repo, 10*time.Minute, "git", "commit", "-m", "two counters: Peek")
	if err == nil {
		t.Fatalf("(e) the commit of racy reads in two modules was accepted; output:\n%s", out)
	}
	for _, hook := range []string{`guardvet \(changed packages\)`, `guardvet \(alpha\)`, `guardvet \(beta\)`} {
		if !regexp.MustCompile(hook + `\.+Failed`).MatchString(out) {
			t.Errorf("(e) the hook %s did not fail; output:\n%s", hook, out)
		}
	}
	// The staged-files hook reports both modules' findings in one run,
	// relative to the repository root; the -C hooks relative to their
	// module.
	msg := `:\d+: c\.n read while c\.mu is not known to be held`
	changed := out
	if i := strings.Index(out, "- hook id: guardvet-changed"); i >= 0 {
		changed = out[i:]
		if j := strings.Index(changed[1:], "- hook id:"); j >= 0 {
			changed = changed[:j+1]
		}
	} else {
		t.Errorf("(e) no guardvet-changed section in the output:\n%s", out)
	}
	for _, m := range modules {
		re := regexp.MustCompile(`(?m)^` + m + `/counter/counter\.go:` + strconv.Itoa(line) + msg)
		if !re.MatchString(changed) {
			t.Errorf("(e) guardvet-changed did not report %s's finding (want %s):\n%s", m, re, changed)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^counter/counter\.go:`+strconv.Itoa(line)+msg).FindAllString(out, -1)); n != 2 {
		t.Errorf("(e) want the finding once from each module's -C hook, got %d:\n%s", n, out)
	}
	if !docs.multiShown.MatchString(out) {
		t.Errorf("(e) output lacks the lines docs/pre-commit.md shows (want %s):\n%s", docs.multiShown, out)
	}
	precommitCommits(t, env, repo, 1)
	t.Logf("TIMING (e) rejected commit, two modules: %v", time.Since(step).Round(time.Millisecond))

	// (f) Both fixed.
	step = time.Now()
	put("fixed")
	out, err = precommitRun(t, env, repo, 10*time.Minute, "git", "commit", "-m", "two counters: Peek, under mu")
	if err != nil {
		t.Fatalf("(f) committing the fixes in two modules failed: %v\n%s", err, out)
	}
	passed("(f)", out)
	precommitCommits(t, env, repo, 2)
	t.Logf("TIMING (f) fixed commit, two modules: %v", time.Since(step).Round(time.Millisecond))
}

// precommitDocs is what docs/pre-commit.md gives a user, as this test
// uses it.
type precommitDocs struct {
	first, single, multi    string         // the .pre-commit-config.yaml files (the page's first, it with guardvet-changed, several modules), with the substitutions for a checkout
	install                 string         // the command that installs the git hook
	singleShown, multiShown *regexp.Regexp // the outputs of a rejected commit the page shows
}

// precommitFromDocs takes the configurations, the install command and the
// shown outputs from docs/pre-commit.md. The configurations get the
// substitutions the page gives for a checkout instead of a release: repo:
// the checkout's path (hookRepo), rev: the output of the page's
// `git -C /path/to/guardvet rev-parse HEAD`, run with that path.
func precommitFromDocs(t *testing.T, env []string, root, hookRepo string) precommitDocs {
	t.Helper()
	page := docFile(t, root, "docs/pre-commit.md")
	top := docSection(t, page, "# pre-commit")
	several := docSection(t, page, "## A repository with several modules")

	oneLine := strings.Join(strings.Fields(top), " ") // prose, as one line
	install := regexp.MustCompile("then `(pre-commit install[^`]*)`").FindStringSubmatch(oneLine)
	if install == nil {
		t.Fatalf("docs/pre-commit.md no longer says \"then `pre-commit install`\":\n%s", top)
	}
	const placeholder = "/path/to/guardvet"
	checkout := regexp.MustCompile("`repo: " + regexp.QuoteMeta(placeholder) + "`, `rev:` the output of `(git -C " + regexp.QuoteMeta(placeholder) + " rev-parse HEAD)`").FindStringSubmatch(oneLine)
	if checkout == nil {
		t.Fatalf("docs/pre-commit.md no longer gives the substitutions for a checkout (\"`repo: %s`, `rev:` the output of `git -C %s rev-parse HEAD`\"):\n%s", placeholder, placeholder, top)
	}
	rev := strings.TrimSpace(precommitMust(t, env, hookRepo, time.Minute, "bash", "-c", strings.ReplaceAll(checkout[1], placeholder, hookRepo)))

	substitute := func(config string) string {
		config = docReplace(t, config, "repo: https://github.com/guardvet/guardvet", "repo: "+hookRepo, 1)
		return docReplace(t, config, "rev: v0.1.0", "rev: "+rev, 1)
	}
	configs := docBlocks(t, top, "yaml", 2)
	// The second block is the guardvet-changed hook, to add to the first's
	// hooks.
	if !strings.HasSuffix(configs[0], "      - id: guardvet\n") || strings.TrimSpace(configs[1]) != "- id: guardvet-changed" {
		t.Fatalf("docs/pre-commit.md: this test adds the second snippet (%q) at the end of the first config's hooks:\n%s", configs[1], configs[0])
	}
	return precommitDocs{
		first:       substitute(configs[0]),
		single:      substitute(configs[0] + configs[1]),
		multi:       substitute(docBlocks(t, several, "yaml", 1)[0]),
		install:     install[1],
		singleShown: transcriptPattern(docBlocks(t, top, "", 1)[0]),
		multiShown:  transcriptPattern(docBlocks(t, several, "", 1)[0]),
	}
}
