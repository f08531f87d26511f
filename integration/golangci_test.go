//go:build integration

// Package integration holds tests that build and run real tools around
// guardvet. They are slow and need the Go module proxy, so they only build
// with -tags integration:
//
//	go test -tags integration -run Golangci -v -timeout 30m ./integration/
//
// TestGolangciPlugin builds a real golangci-lint v2 with guardvet's module
// plugin (package golangci) with .ci/golangci, the script behind make
// golangci, then lints the fixture modules in testdata/golangci with it.
//
// What docs/golangci-lint.md gives a user is taken from the page: the
// .golangci.yml every fixture is linted with (the settings cases change
// only its disable: line), the proxy-only .custom-gcl.yml (compared with
// the one .ci/golangci writes, with the page's /path/to/guardvet
// placeholders filled in), the run command (run as written on the racy
// fixture, whose output must have a finding of the form the page shows),
// and the per-module run for a repository with several modules.
//
// `golangci-lint custom` always clones
// https://github.com/golangci/golangci-lint.git. The script does not need
// GitHub: it turns golangci-lint's module from the Go module proxy into a
// local git repository tagged with the version, and points the clone URL at
// it with git's url.<base>.insteadOf, passed in GIT_CONFIG_COUNT/KEY/VALUE
// (golangci-lint passes those to git). The method lives in the script only.
//
// Work goes to a fresh temporary directory. Set GUARDVET_GCL_CACHE to a
// directory to keep the golangci-lint binary, the local repository and the
// custom binary (keyed by a hash of guardvet's Go sources) between runs.
package integration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// ruleNames lists the plugin's rules as its error messages do.
// ruleNames lists the rules the plugin accepts in disable: config holds
// options and is not one.
func ruleNames() string {
	var names []string
	for _, a := range suite.Analyzers() {
		if a != config.Analyzer {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, ", ")
}

const (
	gclVersion = "v2.15.0" // passed to .ci/golangci as GOLANGCI_LINT_VERSION
	thisModule = "github.com/guardvet/guardvet"
)

func TestGolangciPlugin(t *testing.T) {
	start := time.Now()
	root := moduleRoot(t)
	cache := os.Getenv("GUARDVET_GCL_CACHE")
	if cache == "" {
		cache = t.TempDir()
	} else if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	cache, err := filepath.Abs(cache)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cache directory %s", cache)
	tmp := filepath.Join(cache, "tmp") // TMPDIR for the tools: golangci-lint custom clones there
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}

	docs := golangciFromDocs(t, root)
	custom := step(t, "custom-gcl build (.ci/golangci)", func() string { return buildCustom(t, root, cache, tmp) })
	docs.checkBuild(t, root, custom)

	lint := &linter{bin: custom, tmp: tmp, cacheRoot: filepath.Dir(custom), config: docs.config}
	out := lint.run(t, "--version")
	if !strings.Contains(out.stdout+out.stderr, "2.15.0-custom-gcl") {
		t.Errorf("custom-gcl --version: %q, want a v2.15.0 custom build", out.stdout+out.stderr)
	}

	racyFindings := []finding{
		{"session.go", 18, "directives", "unknown directive //guard:bye; did you mean //guard:by?"},
		{"session.go", 31, "guardedby", "s.pty read while s.mu is not known to be held; //guard:by mu needs s.mu read- or write-locked"},
		{"session.go", 36, "unusedignore", "//guard:ignore suppresses nothing here; remove it"},
	}

	t.Run("racy", func(t *testing.T) {
		res := lint.module(t, "racy", "")
		if res.code == 0 {
			t.Errorf("exit 0 with findings, want non-zero")
		}
		res.expect(t, racyFindings)
	})

	// The page's run command, as written, in the racy fixture: golangci-lint's
	// text output on stdout, with the finding as the page shows it.
	t.Run("racy as documented", func(t *testing.T) {
		dir := lint.fixture(t, "racy", "")
		res := lint.shell(t, dir, docs.run(custom))
		if res.code != 1 {
			t.Errorf("exit %d, want golangci-lint's 1 for findings", res.code)
		}
		if !docs.finding.MatchString(res.stdout) {
			t.Errorf("stdout lacks a finding like the page's (want %s):\n%s", docs.finding, res.stdout)
		}
	})

	t.Run("fixed", func(t *testing.T) {
		res := lint.module(t, "fixed", "")
		if res.code != 0 {
			t.Errorf("exit %d, want 0\n%s", res.code, res.stderr)
		}
		res.expect(t, nil)
	})

	// Settings reach the plugin: without guardedby its finding is gone and
	// the others stay.
	t.Run("racy disable guardedby", func(t *testing.T) {
		res := lint.module(t, "racy", "disable: [guardedby]")
		if res.code == 0 {
			t.Errorf("exit 0 with findings, want non-zero")
		}
		res.expect(t, []finding{racyFindings[0], racyFindings[2]})
	})

	t.Run("racy disable all but guardedby", func(t *testing.T) {
		res := lint.module(t, "racy", "disable: [directives, unusedignore]")
		res.expect(t, []finding{racyFindings[1]})
	})

	// Bad settings stop golangci-lint with the plugin's error, through
	// golangci-lint's own configuration loader.
	for _, tc := range []struct{ name, settings, want string }{
		{"unknown key", "disabel: [guardedby]", `unknown field "disabel"`},
		{"unknown rule", "disable: [guardedy]", `unknown rule "guardedy" (valid rules: ` + ruleNames() + `)`},
		{"unknown flag", "flags: {guardedby.nosuch: 1}", `unknown flag "guardedby.nosuch"`},
	} {
		t.Run("settings "+tc.name, func(t *testing.T) {
			res := lint.module(t, "racy", tc.settings)
			if res.code == 0 || res.code == 1 {
				t.Errorf("exit %d, want a configuration error (not 0, not the findings code 1)", res.code)
			}
			if !strings.Contains(res.stdout+res.stderr, tc.want) {
				t.Errorf("output does not contain %q:\n%s%s", tc.want, res.stdout, res.stderr)
			}
		})
	}

	t.Run("related", func(t *testing.T) { testRelated(t, lint, docs.related) })
	t.Run("adoption", func(t *testing.T) { testAdoption(t, lint, docs.adoption) })

	// A repository with two modules and the page's .golangci.yml at its
	// root, linted with the page's commands for several modules.
	t.Run("two modules", func(t *testing.T) {
		repo := t.TempDir()
		lint.write(t, filepath.Join(repo, ".golangci.yml"), "")
		for _, m := range []string{"alpha", "beta"} {
			dir := filepath.Join(repo, m)
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "golangci", "racy"))); err != nil {
				t.Fatal(err)
			}
			precommitWrite(t, filepath.Join(dir, "go.mod"), "module example.com/"+m+"\n\ngo 1.26\n")
		}
		res := lint.shell(t, repo, docs.perModule(custom))
		if res.code == 0 {
			t.Errorf("exit 0 with findings in both modules, want non-zero")
		}
		// Paths are relative to .golangci.yml, at the root.
		for _, m := range []string{"alpha", "beta"} {
			re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(m+"/") + docs.findingExpr + `$`)
			if !re.MatchString(res.stdout) {
				t.Errorf("stdout lacks %s's finding (want %s):\n%s", m, re, res.stdout)
			}
		}
	})

	t.Logf("total %s", time.Since(start).Round(time.Millisecond))
}

// testRelated lints the related fixture, whose findings have related
// positions on other lines (analysis.Diagnostic.Related). golangci-lint
// makes an issue of each related position, "RULE(related information):
// ...", at its own line; the plugin folds them into the finding's message,
// so there is one issue per finding, and //nolint:guardvet on the finding's
// line silences all of it. The finding the page shows is the first one,
// as golangci-lint's text output has it.
func testRelated(t *testing.T, lint *linter, shown string) {
	findings := []finding{
		{"related.go", 24, "lockorder", "pick one order and declare it on a package-level var declaration or a type's doc: //guard:order Account.mu Ledger.mu; related: related.go:23:2: Account.mu locked here"},
		{"related.go", 44, "guardedby", "a.mu.Unlock() but a.mu is not held here (unlocking an unlocked mutex is a fatal error); remove this Unlock; related: related.go:43:2: a.mu released here"},
		{"related.go", 49, "guardedby", "a.balance read while a.mu is not known to be held"},
	}
	t.Run("one issue per finding", func(t *testing.T) {
		res := lint.module(t, "related", "")
		if res.code != 1 {
			t.Errorf("exit %d, want golangci-lint's 1 for findings", res.code)
		}
		if len(res.issues) != len(findings) {
			t.Errorf("%d issues for %d findings", len(res.issues), len(findings))
		}
		res.expect(t, findings)
		if re := transcriptPattern(shown); !re.MatchString(res.stderr) {
			t.Errorf("the text output lacks the page's finding with a related position (want %s)", re)
		}
	})
	t.Run("nolint on the findings' lines", func(t *testing.T) {
		dir := lint.fixture(t, "related", "")
		file := filepath.Join(dir, "related.go")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for _, f := range findings {
			lines[f.line-1] += " //nolint:guardvet // a fixture"
		}
		precommitWrite(t, file, strings.Join(lines, "\n"))
		res := lint.lint(t, dir)
		if res.code != 0 {
			t.Errorf("exit %d, want 0: //nolint:guardvet is on every finding's line", res.code)
		}
		res.expect(t, nil)
	})
}

// testAdoption lints a git repository with the page's .golangci.yml and the
// snippets of its section on adopting guardvet. On main: a clean module,
// with the racy fixture's findings in old/ and in legacy/. The branch
// deletes GetPTY's Lock and deferred Unlock, leaving a finding on a line
// it did not add, and adds a finding under legacy/. Of all the findings,
// only the first is left: old/ is not in the change, legacy/ is excluded.
func testAdoption(t *testing.T, lint *linter, snippets []string) {
	repo := t.TempDir()
	env := precommitEnv(t, t.TempDir())
	precommitGitInit(t, env, repo)
	if err := os.CopyFS(repo, os.DirFS(filepath.Join("testdata", "golangci", "fixed"))); err != nil {
		t.Fatal(err)
	}
	racy, err := os.ReadFile(filepath.Join("testdata", "golangci", "racy", "session.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"old", "legacy"} {
		precommitWrite(t, filepath.Join(repo, dir, "session.go"), string(racy))
	}
	config := lint.config
	for _, s := range snippets {
		config = yamlMerge(t, config, s)
	}
	precommitWrite(t, filepath.Join(repo, ".golangci.yml"), config)
	t.Logf(".golangci.yml:\n%s", config)
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	precommitMust(t, env, repo, time.Minute, "git", "commit", "-q", "-m", "main")
	precommitMust(t, env, repo, time.Minute, "git", "checkout", "-q", "-b", "change")

	session := filepath.Join(repo, "session.go")
	data, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	locked := "\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s.pty\n"
	precommitWrite(t, session, docReplace(t, string(data), locked, "\treturn s.pty\n", 1))
	legacy := filepath.Join(repo, "legacy", "session.go")
	precommitWrite(t, legacy, string(racy)+"\n// Peek reads the PTY without the lock.\nfunc (s *Session) Peek() *PTY { return s.pty }\n")
	precommitMust(t, env, repo, time.Minute, "git", "commit", "-q", "-a", "-m", "change")

	res := lint.lint(t, repo)
	if res.code != 1 {
		t.Errorf("exit %d, want golangci-lint's 1 for findings", res.code)
	}
	res.expect(t, []finding{{"session.go", 30, "guardedby", "s.pty read while s.mu is not known to be held"}})
	if len(res.issues) > 0 && res.issues[0].Pos.Filename != "session.go" {
		t.Errorf("the finding is in %s, want session.go at the root", res.issues[0].Pos.Filename)
	}

	// Without the snippets, every finding is there: 1 + 3 in old/ + 4 in legacy/.
	precommitWrite(t, filepath.Join(repo, ".golangci.yml"), lint.config)
	if all := lint.lint(t, repo); len(all.issues) != 8 {
		t.Errorf("%d issues without the page's snippets, want 8", len(all.issues))
	}
}

// yamlMerge adds the top-level keys of a YAML snippet to a configuration:
// a key's lines go under the same key when the configuration has it (as a
// line "KEY:"), else at the end. Top-level keys of the snippet must be
// mappings ("KEY:" alone on the line).
func yamlMerge(t *testing.T, config, snippet string) string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(config, "\n"), "\n")
	var keys []string
	body := map[string][]string{}
	for _, l := range strings.Split(strings.TrimRight(snippet, "\n"), "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "#"):
			if len(keys) == 0 {
				t.Fatalf("snippet does not start with a top-level key:\n%s", snippet)
			}
			body[keys[len(keys)-1]] = append(body[keys[len(keys)-1]], l)
		case strings.HasSuffix(l, ":"):
			keys = append(keys, l)
		default:
			t.Fatalf("snippet line %q: want top-level mappings only (this test merges them into the page's .golangci.yml)", l)
		}
	}
	for _, k := range keys {
		if i := slices.Index(lines, k); i >= 0 {
			lines = slices.Insert(lines, i+1, body[k]...)
		} else {
			lines = append(append(lines, k), body[k]...)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// step runs f and logs how long it took.
func step[T any](t *testing.T, name string, f func() T) T {
	t.Helper()
	start := time.Now()
	v := f()
	t.Logf("%s: %s", name, time.Since(start).Round(time.Millisecond))
	return v
}

// moduleRoot is the guardvet module's directory: the parent of this
// package's directory, where go test runs the test.
func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(mod, []byte("module "+thisModule+"\n")) {
		t.Fatalf("%s is not the root of %s (go.mod: %v)", root, thisModule, err)
	}
	return root
}

type result struct {
	code           int
	stdout, stderr string
}

// command runs name with args in dir, with extra environment, and returns
// its exit code and output. It fails the test only if the command could not
// be started.
func command(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	ctx := t.Context()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-30*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		res.code = exit.ExitCode()
	}
	return res
}

// buildCustom builds the custom golangci-lint with .ci/golangci (what make
// golangci runs: the one copy of the proxy-only method) and returns the
// binary. The script keeps golangci-lint and its local repository in
// cache; the custom binary is kept under a key that changes with
// guardvet's Go sources, go.mod and go.sum.
func buildCustom(t *testing.T, root, cache, tmp string) string {
	key := sourceKey(t, root)
	dir := filepath.Join(cache, "custom-"+key)
	bin := filepath.Join(dir, "custom-gcl")
	if _, err := os.Stat(bin); err == nil {
		t.Logf("reusing %s (sources unchanged)", bin)
		return bin
	}
	// Binaries built from older sources are of no further use.
	old, _ := filepath.Glob(filepath.Join(cache, "custom-*"))
	for _, o := range old {
		os.RemoveAll(o)
	}
	env := []string{"GUARDVET_GCL_CACHE=" + cache, "GOLANGCI_LINT_VERSION=" + gclVersion, "TMPDIR=" + tmp}
	res := command(t, root, env, filepath.Join(root, ".ci", "golangci"), "-o", bin)
	t.Logf(".ci/golangci -o %s: exit %d\n%s%s", bin, res.code, res.stdout, res.stderr)
	// Kept next to the binary: golangciDocs.checkBuild reads what the
	// script wrote, also when the binary is reused.
	precommitWrite(t, filepath.Join(dir, "build.log"), res.stdout+res.stderr)
	if res.code != 0 {
		t.Fatalf(".ci/golangci failed")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf(".ci/golangci wrote no %s: %v", bin, err)
	}
	return bin
}

// sourceKey hashes what goes into the plugin: the non-test Go files of the
// guardvet module (not testdata, not nested modules), go.mod and go.sum.
func sourceKey(t *testing.T, root string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", gclVersion)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		isSource := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
		if path == filepath.Join(root, "go.mod") || path == filepath.Join(root, "go.sum") || isSource {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// linter runs the custom golangci-lint.
type linter struct {
	bin       string
	tmp       string
	cacheRoot string // golangci-lint's own cache lives next to the binary
	config    string // docs/golangci-lint.md's .golangci.yml
}

func (l *linter) env() []string {
	// golangci-lint's result cache is keyed by the binary's version, and
	// `golangci-lint custom` derives that from the top-level files of the
	// plugin directory only, so a cache shared between plugin builds could
	// return stale findings. Keep one per custom binary.
	return []string{
		"GOLANGCI_LINT_CACHE=" + filepath.Join(l.cacheRoot, "lint-cache"),
		"TMPDIR=" + l.tmp,
		"GOWORK=off",
		"NO_COLOR=1",
	}
}

func (l *linter) run(t *testing.T, args ...string) result {
	t.Helper()
	return command(t, l.tmp, l.env(), l.bin, args...)
}

type lintResult struct {
	result
	issues []issue
}

type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

type finding struct {
	file     string
	line     int
	category string // the guardvet rule (analyzer), which golangci-lint puts before the message
	text     string // a substring of the message
}

// write writes the page's .golangci.yml to path. With settings (one
// "KEY: VALUE" line), the page's line of guardvet settings is replaced by
// it.
func (l *linter) write(t *testing.T, path, settings string) {
	t.Helper()
	conf := l.config
	if settings != "" {
		conf = golangciSettingsLine.ReplaceAllString(conf, "${1}"+settings)
	}
	precommitWrite(t, path, conf)
}

// golangciSettingsLine is the line of docs/golangci-lint.md's .golangci.yml
// that the settings cases replace.
var golangciSettingsLine = regexp.MustCompile(`(?m)^( +)disable: \[\].*$`)

// fixture copies the fixture module name into a temporary directory, with
// the page's .golangci.yml (see write), and returns the directory.
func (l *linter) fixture(t *testing.T, name, settings string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "golangci", name))); err != nil {
		t.Fatal(err)
	}
	l.write(t, filepath.Join(dir, ".golangci.yml"), settings)
	return dir
}

// shell runs a documented command line with bash in dir, in the linter's
// environment, and logs it.
func (l *linter) shell(t *testing.T, dir, script string) result {
	t.Helper()
	start := time.Now()
	res := command(t, dir, l.env(), "bash", "-c", script)
	t.Logf("$ (cd %s && %s)  [%v, exit %d]\nstdout:\n%s\nstderr:\n%s", dir, script, time.Since(start).Round(time.Millisecond), res.code, res.stdout, res.stderr)
	return res
}

// module copies the fixture module name into a temporary directory, with
// the page's .golangci.yml (see write), and runs the custom golangci-lint
// on it, with JSON output.
func (l *linter) module(t *testing.T, name, settings string) lintResult {
	t.Helper()
	return l.lint(t, l.fixture(t, name, settings))
}

// lint runs the custom golangci-lint in the module dir, with JSON output.
func (l *linter) lint(t *testing.T, dir string) lintResult {
	t.Helper()
	start := time.Now()
	res := command(t, dir, l.env(), l.bin, "run",
		"--output.json.path=stdout", "--output.text.path=stderr",
		"--show-stats=false", "./...")
	t.Logf("custom-gcl run (%s): exit %d, %s", filepath.Base(dir), res.code, time.Since(start).Round(time.Millisecond))
	if res.stderr != "" {
		t.Logf("stderr:\n%s", res.stderr)
	}
	lr := lintResult{result: res}
	if res.code == 0 || res.code == 1 { // clean, or findings: JSON on stdout
		var out struct{ Issues []issue }
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("decoding JSON output: %v\n%s", err, res.stdout)
		}
		lr.issues = out.Issues
	}
	return lr
}

// expect checks that the findings are exactly want, in order.
func (r lintResult) expect(t *testing.T, want []finding) {
	t.Helper()
	for i := 0; i < len(r.issues) || i < len(want); i++ {
		switch {
		case i >= len(want):
			is := r.issues[i]
			t.Errorf("unexpected finding %s:%d: %s (%s)", is.Pos.Filename, is.Pos.Line, is.Text, is.FromLinter)
		case i >= len(r.issues):
			t.Errorf("missing finding (%s) %s:%d: %s", want[i].category, want[i].file, want[i].line, want[i].text)
		default:
			is, w := r.issues[i], want[i]
			// golangci-lint prefixes the analyzer's name to the message.
			if is.FromLinter != "guardvet" || filepath.Base(is.Pos.Filename) != w.file || is.Pos.Line != w.line ||
				!strings.HasPrefix(is.Text, w.category+": ") || !strings.Contains(is.Text, w.text) {
				t.Errorf("finding %d: got %s:%d: %s (%s)\nwant (%s) %s:%d: ...%s... (guardvet)",
					i, is.Pos.Filename, is.Pos.Line, is.Text, is.FromLinter, w.category, w.file, w.line, w.text)
			}
		}
	}
}

// golangciDocs is what docs/golangci-lint.md gives a user, as this test
// uses it.
type golangciDocs struct {
	config      string         // .golangci.yml
	customYML   string         // the proxy-only .custom-gcl.yml, with the page's placeholders
	runCmd      string         // the proxy-only run command, with the placeholder
	perModuleC  string         // the run command for a repository with several modules
	finding     *regexp.Regexp // a finding as the page shows it, as a whole line
	findingExpr string         // the same, unanchored
	related     string         // a finding with a related position, as the page shows it
	adoption    []string       // the YAML snippets for adopting guardvet in a large codebase
}

// golangciPlaceholder is the page's stand-in for the guardvet checkout.
const golangciPlaceholder = "/path/to/guardvet"

func golangciFromDocs(t *testing.T, root string) golangciDocs {
	t.Helper()
	page := docFile(t, root, "docs/golangci-lint.md")
	proxy := docSection(t, page, "## Proxy-only (no GitHub): `make golangci`")
	config := docSection(t, page, "## `.golangci.yml` (both ways)")
	several := docSection(t, page, "## A repository with several modules")
	adoption := docSection(t, page, "## Adopting guardvet in a large codebase")

	var d golangciDocs
	d.config = docBlocks(t, config, "yaml", 1)[0]
	if !golangciSettingsLine.MatchString(d.config) {
		t.Fatalf("the page's .golangci.yml has no line %s, which the settings cases replace:\n%s", golangciSettingsLine, d.config)
	}
	d.customYML = docBlocks(t, proxy, "yaml", 1)[0]
	sh := docBlocks(t, proxy, "sh", 3)
	d.runCmd = strings.TrimSpace(sh[2])
	if !strings.HasPrefix(d.runCmd, golangciPlaceholder+"/bin/custom-gcl run") {
		t.Fatalf("the page's proxy-only run command is %q; this test runs %s/bin/custom-gcl run ...", d.runCmd, golangciPlaceholder)
	}
	d.perModuleC = strings.TrimSpace(docBlocks(t, several, "sh", 1)[0])
	d.related = docBlocks(t, config, "", 1)[0]
	d.adoption = docBlocks(t, adoption, "yaml", 2)
	shown := regexp.MustCompile("Findings look like\\s+`([^`]+)`").FindStringSubmatch(config)
	if shown == nil {
		t.Fatalf("the page no longer shows a finding (\"Findings look like `...`\"):\n%s", config)
	}
	// The shown finding is of the racy fixture's session.go; its file name
	// and " ... " match any.
	q := regexp.QuoteMeta(shown[1])
	d.findingExpr = strings.ReplaceAll(q, ` \.\.\. `, ` [^\n]* `)
	d.finding = regexp.MustCompile(`(?m)^` + d.findingExpr + `$`)
	return d
}

// run is the page's run command with the custom binary in place of the
// page's bin/custom-gcl.
func (d golangciDocs) run(bin string) string {
	return strings.ReplaceAll(d.runCmd, golangciPlaceholder+"/bin/custom-gcl", bin)
}

// perModule is the page's command for several modules, likewise.
func (d golangciDocs) perModule(bin string) string {
	return strings.ReplaceAll(d.perModuleC, golangciPlaceholder+"/bin/custom-gcl", bin)
}

// checkBuild checks what the page says of make golangci against what the
// test ran: make golangci runs .ci/golangci -o bin/custom-gcl, and the
// .custom-gcl.yml the page shows is the one the script wrote, with the
// checkout for /path/to/guardvet and the binary's directory for
// /path/to/guardvet/bin.
func (d golangciDocs) checkBuild(t *testing.T, root, bin string) {
	t.Helper()
	out, err := exec.Command("make", "-s", "-n", "-C", root, "golangci").Output()
	if want := ".ci/golangci -o " + filepath.Join(root, "bin", "custom-gcl") + "\n"; err != nil || string(out) != want {
		t.Errorf("make -n golangci: %q (%v), want %q as the page says", out, err, want)
	}
	log, err := os.ReadFile(filepath.Join(filepath.Dir(bin), "build.log"))
	if err != nil {
		t.Logf("no build.log next to %s (built before the test kept it): not comparing the .custom-gcl.yml", bin)
		return
	}
	_, written, ok := strings.Cut(string(log), "== golangci-lint custom, .custom-gcl.yml:\n")
	if !ok {
		t.Fatalf("the build log does not show the .custom-gcl.yml .ci/golangci wrote:\n%s", log)
	}
	var yml []string
	for _, l := range strings.Split(written, "\n") {
		if !strings.HasPrefix(l, "   ") {
			break
		}
		yml = append(yml, strings.TrimPrefix(l, "   "))
	}
	want := strings.ReplaceAll(d.customYML, golangciPlaceholder+"/bin", filepath.Dir(bin))
	want = strings.ReplaceAll(want, golangciPlaceholder, root)
	if got := strings.Join(yml, "\n") + "\n"; got != want {
		t.Errorf("the .custom-gcl.yml .ci/golangci wrote:\n%s\nthe page shows (placeholders filled in):\n%s", got, want)
	}
}
