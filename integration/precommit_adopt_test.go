//go:build integration

package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// precommitAdoptHeading is the section of docs/pre-commit.md on adopting
// guardvet with a baseline.
const precommitAdoptHeading = "## Adopting on existing code: a baseline"

// precommitNewRaceMarker is on the racy line testdata/precommit/baseline/newrace
// adds.
const precommitNewRaceMarker = "the new race:"

// precommitBaseline is the third repository of TestPrecommit: a module
// with a finding from before the hooks, adopted with the baseline of
// docs/pre-commit.md's "Adopting on existing code: a baseline", whose
// snippets it runs as written. The hooks are the page's first
// configuration with guardvet-changed added (docs.single), already
// installed in PRE_COMMIT_HOME by the first repository. guardvet itself,
// for the page's commands, is `go install ./cmd/guardvet` in the hook
// repository (the snapshot, at the rev the hooks run), on PATH.
//
//	(g) the racy counter (testdata/precommit/racy), committed before
//	    `pre-commit install`; with the hooks and no baseline,
//	    `pre-commit run --all-files` fails both hooks on its finding;
//	(h) the page's .guardvet.yaml and its block: `guardvet -write-baseline
//	    ./...` writes a baseline with that one finding, and both files are
//	    committed;
//	(i) Add and Reset above the racy Peek (baseline/grown): no new finding,
//	    the baselined one moved down; the commit passes both hooks;
//	(j) a new package staged alone: guardvet-changed checks only it and
//	    calls no entry stale (`pre-commit run --verbose`), the commit passes;
//	(k) a second racy read (baseline/newrace): the commit is rejected by
//	    both hooks, each printing that finding and no other;
//	(l) the page's `args:` variant instead of .guardvet.yaml: the yaml
//	    removed, the baseline rewritten with the page's command (the same
//	    fingerprints), the hooks given -baseline in their args; the new
//	    racy read is rejected the same way;
//	(m) the counter back as it was in (g), a change with no new finding:
//	    the commit passes both hooks;
//	(n) Peek fixed (testdata/precommit/fixed): the baseline entry is
//	    stale; both hooks pass and print it (`pre-commit run --verbose`),
//	    and the commit passes.
func precommitBaseline(t *testing.T, env []string, tmp, root, hookRepo string, docs precommitDocs, testdata string) {
	start := time.Now()
	adopt := precommitAdoptFromDocs(t, root, docs)

	// guardvet for the page's commands, from the hook repository.
	gobin := filepath.Join(tmp, "adopt-bin")
	env = append(append([]string(nil), env...), "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
	precommitMust(t, env, hookRepo, 10*time.Minute, "go", "install", "./cmd/guardvet")
	t.Logf("TIMING baseline: go install ./cmd/guardvet: %v", time.Since(start).Round(time.Millisecond))

	repo := filepath.Join(tmp, "adopt")
	counter := filepath.Join(repo, "counter", "counter.go")
	racy := filepath.Join(testdata, "racy", "counter.go")
	grown := filepath.Join(testdata, "baseline", "grown", "counter.go")
	newrace := filepath.Join(testdata, "baseline", "newrace", "counter.go")
	const msg = `: c\.n read while c\.mu is not known to be held; //guard:by mu needs c\.mu read- or write-locked: lock c\.mu around this access, or declare //guard:rholds c\.mu on `
	oldFinding := func(file string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^counter/counter\.go:` + strconv.Itoa(precommitMarkerLine(t, file, precommitRaceMarker)) + `:\d+` + msg + `Peek if its callers hold it \(guardedby\)$`)
	}
	newFinding := regexp.MustCompile(`(?m)^counter/counter\.go:` + strconv.Itoa(precommitMarkerLine(t, newrace, precommitNewRaceMarker)) + `:\d+` + msg + `Snapshot if its callers hold it \(guardedby\)$`)
	const staleSaid = "guardvet: baseline guardvet-baseline.json: 1 entry no finding matches any more"

	// (g) Existing code with a finding, committed before the hooks.
	step := time.Now()
	precommitGitInit(t, env, repo)
	precommitWrite(t, filepath.Join(repo, "go.mod"), "module "+precommitUserModule+"\n\ngo 1.26\n")
	precommitCopy(t, racy, counter)
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	precommitMust(t, env, repo, time.Minute, "git", "commit", "-q", "-m", "counter, with a race")
	precommitWrite(t, filepath.Join(repo, ".pre-commit-config.yaml"), docs.single)
	precommitMust(t, env, repo, time.Minute, "git", "add", ".pre-commit-config.yaml")
	precommitMust(t, env, repo, time.Minute, "bash", "-c", docs.install)
	out, err := precommitRun(t, env, repo, 10*time.Minute, "pre-commit", "run", "--all-files")
	if err == nil {
		t.Fatalf("(g) without a baseline, the hooks passed on the existing finding:\n%s", out)
	}
	for _, id := range []string{"guardvet", "guardvet-changed"} {
		if got := precommitHookOutput(t, "(g)", out, id); !oldFinding(racy).MatchString(got) {
			t.Errorf("(g) without a baseline, the %s hook did not report the existing finding (want %s):\n%s", id, oldFinding(racy), got)
		}
	}
	t.Logf("TIMING (g) existing code, no baseline: %v", time.Since(step).Round(time.Millisecond))

	// (h) The page's .guardvet.yaml and commands: the baseline, committed.
	step = time.Now()
	precommitWrite(t, filepath.Join(repo, ".guardvet.yaml"), adopt.conf)
	t.Logf(".guardvet.yaml:\n%s", adopt.conf)
	out = precommitMust(t, env, repo, 10*time.Minute, "bash", "-eo", "pipefail", "-c", adopt.write)
	if !strings.Contains(out, "guardvet: wrote guardvet-baseline.json: 1 finding\n") {
		t.Errorf("(h) the page's commands did not say they wrote the baseline with one finding:\n%s", out)
	}
	precommitCommits(t, env, repo, 2)
	tracked := precommitMust(t, env, repo, time.Minute, "git", "ls-files")
	for _, f := range []string{".guardvet.yaml", "guardvet-baseline.json", ".pre-commit-config.yaml"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f) + `$`).MatchString(tracked) {
			t.Errorf("(h) %s is not committed; the repository has:\n%s", f, tracked)
		}
	}
	written := precommitReadBaseline(t, filepath.Join(repo, "guardvet-baseline.json"))
	if len(written) != 1 || written[0].Rule != "guardedby" || written[0].File != "counter/counter.go" ||
		written[0].Line != precommitMarkerLine(t, racy, precommitRaceMarker) || !strings.HasPrefix(written[0].Message, "c.n read while c.mu is not known to be held") {
		t.Fatalf("(h) want the baseline to hold the one finding of counter/counter.go:%d, got %+v", precommitMarkerLine(t, racy, precommitRaceMarker), written)
	}
	t.Logf("TIMING (h) baseline written and committed: %v", time.Since(step).Round(time.Millisecond))

	// commitPasses commits what is staged, and checks that both hooks
	// passed and the repository then has commits commits.
	commitPasses := func(what, msg string, commits int) {
		t.Helper()
		out, err := precommitRun(t, env, repo, 10*time.Minute, "git", "commit", "-m", msg)
		if err != nil {
			t.Fatalf("%s failed: %v\n%s", what, err, out)
		}
		precommitHookPassed(t, what[:strings.Index(what, ")")+1], out)
		precommitCommits(t, env, repo, commits)
	}

	// (i) A change with no new finding, the baselined one moved: passes.
	step = time.Now()
	precommitCopy(t, grown, counter)
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	commitPasses("(i) with the baseline, committing a change with no new finding", "counter: Add and Reset", 3)
	t.Logf("TIMING (i) change with no new finding: %v", time.Since(step).Round(time.Millisecond))

	// (j) Another package staged alone: guardvet-changed does not check
	// counter, and does not call its entry stale.
	step = time.Now()
	precommitWrite(t, filepath.Join(repo, "stats", "stats.go"), "// Package stats has no lock.\npackage stats\n\n// Mean is the mean of n values adding up to sum.\nfunc Mean(sum, n int) int { return sum / n }\n")
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	out, err = precommitRun(t, env, repo, 10*time.Minute, "pre-commit", "run", "--verbose")
	if err != nil {
		t.Errorf("(j) pre-commit run --verbose failed on a new package with no finding: %v\n%s", err, out)
	}
	precommitHookPassed(t, "(j)", out)
	if strings.Contains(out, "no finding matches any more") {
		t.Errorf("(j) a hook called a baseline entry stale, though its finding is still there:\n%s", out)
	}
	commitPasses("(j) committing a new package with no finding", "stats", 4)
	t.Logf("TIMING (j) another package: %v", time.Since(step).Round(time.Millisecond))

	// rejected stages the new racy read and checks that the commit is
	// rejected by both hooks with that finding only; then it unstages it.
	rejected := func(what string) {
		t.Helper()
		precommitCopy(t, newrace, counter)
		precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
		out, err := precommitRun(t, env, repo, 10*time.Minute, "git", "commit", "-m", "counter: Snapshot")
		if err == nil {
			t.Fatalf("%s the commit of a new racy read was accepted:\n%s", what, out)
		}
		for _, hook := range []string{`guardvet`, `guardvet \(changed packages\)`} {
			if !regexp.MustCompile(`(?m)^` + hook + `\.+Failed$`).MatchString(out) {
				t.Errorf("%s the hook %s did not fail:\n%s", what, hook, out)
			}
		}
		for _, id := range []string{"guardvet", "guardvet-changed"} {
			got := precommitHookOutput(t, what, out, id)
			findings := regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: .*$`).FindAllString(got, -1)
			if len(findings) != 1 || !newFinding.MatchString(got) {
				t.Errorf("%s the %s hook printed %d findings, want only the new one (%s):\n%s", what, id, len(findings), newFinding, got)
			}
			if strings.Contains(got, "no finding matches any more") {
				t.Errorf("%s the %s hook called a baseline entry stale:\n%s", what, id, got)
			}
		}
		precommitMust(t, env, repo, time.Minute, "git", "reset", "-q", "--hard", "HEAD")
	}

	// (k) A new finding: rejected, and only it is printed.
	step = time.Now()
	rejected("(k)")
	precommitCommits(t, env, repo, 4)
	t.Logf("TIMING (k) new finding rejected: %v", time.Since(step).Round(time.Millisecond))

	// (l) The args: variant: no .guardvet.yaml, -baseline in the hooks'
	// args, the baseline written with the page's command for it.
	step = time.Now()
	precommitWrite(t, filepath.Join(repo, ".pre-commit-config.yaml"), adopt.args)
	t.Logf(".pre-commit-config.yaml with -baseline in args:\n%s", adopt.args)
	precommitMust(t, env, repo, time.Minute, "pre-commit", "validate-config", ".pre-commit-config.yaml")
	precommitMust(t, env, repo, time.Minute, "git", "rm", "-q", ".guardvet.yaml")
	out = precommitMust(t, env, repo, 10*time.Minute, "bash", "-eo", "pipefail", "-c", adopt.argsWrite)
	if !strings.Contains(out, "guardvet: wrote guardvet-baseline.json: 1 finding\n") {
		t.Errorf("(l) %s did not say it wrote the baseline with one finding:\n%s", adopt.argsWrite, out)
	}
	rewritten := precommitReadBaseline(t, filepath.Join(repo, "guardvet-baseline.json"))
	if len(rewritten) != 1 || rewritten[0].Fingerprint != written[0].Fingerprint || rewritten[0].Line != precommitMarkerLine(t, grown, precommitRaceMarker) {
		t.Fatalf("(l) %s wrote %+v; want the entry of (h), %+v, at line %d", adopt.argsWrite, rewritten, written, precommitMarkerLine(t, grown, precommitRaceMarker))
	}
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	precommitMust(t, env, repo, 10*time.Minute, "git", "commit", "-m", "guardvet: the baseline in the hooks' args")
	precommitCommits(t, env, repo, 5)
	rejected("(l)")
	precommitCommits(t, env, repo, 5)
	t.Logf("TIMING (l) args variant, new finding rejected: %v", time.Since(step).Round(time.Millisecond))

	// (m) The args: variant, a change with no new finding: passes.
	step = time.Now()
	precommitCopy(t, racy, counter)
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	commitPasses("(m) with -baseline in args, committing a change with no new finding", "counter: without Add and Reset", 6)
	t.Logf("TIMING (m) args variant, change with no new finding: %v", time.Since(step).Round(time.Millisecond))

	// (n) The baselined finding fixed: its entry is stale, printed, and
	// the hooks pass.
	step = time.Now()
	precommitCopy(t, filepath.Join(testdata, "fixed", "counter.go"), counter)
	precommitMust(t, env, repo, time.Minute, "git", "add", "-A")
	out, err = precommitRun(t, env, repo, 10*time.Minute, "pre-commit", "run", "--verbose")
	if err != nil {
		t.Errorf("(n) pre-commit run --verbose failed on the fix of the baselined finding: %v\n%s", err, out)
	}
	precommitHookPassed(t, "(n)", out)
	for _, id := range []string{"guardvet", "guardvet-changed"} {
		got := precommitHookOutput(t, "(n)", out, id)
		if !strings.Contains(got, staleSaid) || !strings.Contains(got, "\tcounter/counter.go:"+strconv.Itoa(rewritten[0].Line)+": c.n read while c.mu is not known to be held") {
			t.Errorf("(n) the %s hook did not print the stale entry (want %q and the entry):\n%s", id, staleSaid, got)
		}
	}
	commitPasses("(n) committing the fix of the baselined finding", "counter: Peek, under mu", 7)
	t.Logf("TIMING (n) baselined finding fixed: %v", time.Since(step).Round(time.Millisecond))
	t.Logf("TIMING baseline total: %v", time.Since(start).Round(time.Millisecond))
}

// precommitAdopt is what docs/pre-commit.md's section on the baseline
// gives a user, as precommitBaseline uses it.
type precommitAdopt struct {
	conf      string // the .guardvet.yaml
	write     string // the commands that write the baseline and commit it
	args      string // the page's first configuration with the hooks of the args: variant, with the substitutions for a checkout
	argsWrite string // the command that writes the baseline for the args: variant
}

// precommitAdoptFromDocs takes the baseline section's snippets from
// docs/pre-commit.md: its .guardvet.yaml, its commands, and its hooks
// with -baseline in args, put in place of the first configuration's
// guardvet hook.
func precommitAdoptFromDocs(t *testing.T, root string, docs precommitDocs) precommitAdopt {
	t.Helper()
	section := docSection(t, docFile(t, root, "docs/pre-commit.md"), precommitAdoptHeading)
	yamls := docBlocks(t, section, "yaml", 2)
	const hook = "      - id: guardvet\n"
	if !strings.HasPrefix(yamls[1], hook) || !strings.HasSuffix(docs.first, hook) {
		t.Fatalf("docs/pre-commit.md: this test puts the hooks of the args: variant (%q) in place of the first config's guardvet hook:\n%s", yamls[1], docs.first)
	}
	oneLine := strings.Join(strings.Fields(section), " ")
	argsWrite := regexp.MustCompile("baseline is then written with `(guardvet -baseline [^`]*-write-baseline[^`]*)`").FindStringSubmatch(oneLine)
	if argsWrite == nil {
		t.Fatalf("docs/pre-commit.md no longer says \"the baseline is then written with `guardvet -baseline ... -write-baseline ...`\":\n%s", section)
	}
	// The page installs guardvet at the hooks' rev, the one the first
	// configuration names before the substitutions.
	if !strings.Contains(oneLine, "`go install github.com/guardvet/guardvet/cmd/guardvet@v0.1.0`") {
		t.Fatalf("docs/pre-commit.md: the baseline section no longer installs guardvet at the hooks' rev, v0.1.0:\n%s", section)
	}
	return precommitAdopt{
		conf:      yamls[0],
		write:     docBlocks(t, section, "sh", 1)[0],
		args:      strings.TrimSuffix(docs.first, hook) + yamls[1],
		argsWrite: argsWrite[1],
	}
}

// precommitBaselineEntry is an entry of a baseline file.
type precommitBaselineEntry struct {
	Rule, File, Message, Fingerprint string
	Line                             int
}

// precommitReadBaseline reads a baseline file's entries, sorted by file
// and line.
func precommitReadBaseline(t *testing.T, path string) []precommitBaselineEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Version  int                      `json:"guardvet_baseline"`
		Findings []precommitBaselineEntry `json:"findings"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 {
		t.Fatalf("%s is not a baseline of format 1 (%v):\n%s", path, err, data)
	}
	sort.Slice(f.Findings, func(i, j int) bool {
		a, b := f.Findings[i], f.Findings[j]
		return a.File < b.File || a.File == b.File && a.Line < b.Line
	})
	return f.Findings
}

// precommitHookOutput is the part of pre-commit's output about the hook
// with that id: from its "- hook id:" line to the next hook's status line.
func precommitHookOutput(t *testing.T, what, out, id string) string {
	t.Helper()
	i := strings.Index(out, "- hook id: "+id+"\n")
	if i < 0 {
		t.Errorf("%s no output of the %s hook:\n%s", what, id, out)
		return ""
	}
	section := out[i:]
	if loc := regexp.MustCompile(`(?m)^.*\.{4,}.*(Passed|Failed|Skipped)$`).FindStringIndex(section); loc != nil {
		section = section[:loc[0]]
	}
	return section
}
