//go:build integration

package integration

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	modzip "golang.org/x/mod/zip"

	"golang.org/x/mod/module"
	"gopkg.in/yaml.v3"
)

// TestCIRecipes runs the CI recipes of docs/ci.md, taken from the page
// itself so that they cannot drift from what is tested:
//
//	go test -tags integration -run CIRecipes -v ./integration/
//
// The page has three recipes: the vet command line (a ```sh block), a
// Makefile target (```make) and a GitHub Actions job (```yaml), and the
// Makefile target's pull-request command (`make guardvet
// GUARDVETFLAGS=...`, in the text). The sh and make recipes run twice, on
// a fresh copy of a fixture module (testdata/cirecipes): racy, where they
// must fail and show guardvet's finding, and fixed, where they must pass.
// The pull-request command runs in a clone of a git repository whose main
// branch is the racy module and whose branch adds a second unlocked read
// (the overlay pr-newrace): it must fail with the new finding only.
//
// Which guardvet is installed. The recipes install guardvet with
// `go install github.com/guardvet/guardvet/cmd/guardvet@VERSION`. The test
// serves this working tree (the files git lists, tracked and untracked,
// minus what .gitignore excludes) as that version from a file:// module
// proxy, ahead of the module cache's own download directory and the usual
// GOPROXY, with GONOSUMDB for guardvet's module. Each recipe gets a fresh
// GOPATH (so a fresh bin directory). The build cache is shared, and so is
// one module cache among the recipes of a run, as a CI runner's cache
// restores them: only the first recipe downloads guardvet and compiles it.
// With a module cache each, every recipe compiled it again (the
// compiler's cache keys on the source directory), twenty seconds a
// recipe on a two-core machine. A recipe that names @latest gets the same
// snapshot.
//
// The sh block runs with bash -eo pipefail; the make block is the
// Makefile of the fixture, and `make TARGET` runs each target it declares
// .PHONY. The YAML is parsed, and its job's steps are run the way a
// GitHub-hosted ubuntu runner would run them, once per case of ciEvents (a
// push to main or a pull request into it, on a git repository made from
// the fixtures): `run:` steps with `bash --noprofile --norc -eo pipefail`,
// the runner's GITHUB_* variables and the ${{ github.* }} expressions of
// ciExpand substituted, skipped after a failure unless `if: always()`;
// actions/checkout fetches from that repository as it does, by its
// fetch-depth (ciCheckout); actions/setup-go must ask for this Go's
// version (and puts GOPATH/bin on PATH); github/codeql-action/upload-sarif
// must find a SARIF file with the case's results and run status. The step
// with id guardvet must exit with the case's code. Any other action,
// expression, checkout input or `if:` fails the test, so that a new step
// in the recipe gets a check here.
func TestCIRecipes(t *testing.T) {
	start := time.Now()
	root := moduleRoot(t)
	page := filepath.Join(root, "docs", "ci.md")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(data))
	for _, lang := range []string{"sh", "make", "yaml"} {
		if len(blocks[lang]) != 1 {
			t.Fatalf("docs/ci.md has %d ```%s blocks, want 1 (this test runs each recipe; teach it a new one)", len(blocks[lang]), lang)
		}
	}

	// The version the recipes install, served from a local proxy.
	install := regexp.MustCompile(`go install ` + regexp.QuoteMeta(thisModule) + `/cmd/guardvet@(\S+)`)
	version := ""
	for _, lang := range []string{"sh", "make", "yaml"} {
		m := install.FindAllStringSubmatch(blocks[lang][0], -1)
		if len(m) != 1 {
			t.Fatalf("the ```%s recipe has %d `go install %s/cmd/guardvet@VERSION` commands, want 1:\n%s", lang, len(m), thisModule, blocks[lang][0])
		}
		if version != "" && m[0][1] != version {
			t.Fatalf("the recipes install different versions: %s and %s", version, m[0][1])
		}
		version = m[0][1]
	}
	served := version
	if served == "latest" {
		served = "v0.1.0"
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	ciServe(t, root, filepath.Join(tmp, "snapshot"), proxy, served)
	t.Logf("serving this working tree as %s@%s from %s (%v)", thisModule, served, proxy, time.Since(start).Round(time.Millisecond))

	testdata := filepath.Join(root, "integration", "testdata", "cirecipes")
	line := precommitMarkerLine(t, filepath.Join(testdata, "racy", "counter", "counter.go"), "the race:")
	finding := ciFinding(line)
	// The line a pull request adds (pr-newrace), and the type error of the
	// broken module.
	newLine := precommitMarkerLine(t, filepath.Join(testdata, "pr-newrace", "counter", "counter.go"), "the new race:")
	errLine := precommitMarkerLine(t, filepath.Join(testdata, "broken", "counter", "counter.go"), "the type error:")

	t.Run("sh", func(t *testing.T) {
		script := blocks["sh"][0]
		for _, fixture := range []string{"racy", "fixed"} {
			r := newCIRun(t, root, tmp, proxy, "sh-"+fixture, fixture)
			path := filepath.Join(r.work, "..", "recipe.sh")
			precommitWrite(t, path, script)
			res := r.run(t, "bash", "-eo", "pipefail", path)
			r.expect(t, fixture, res, finding, 1)
		}
	})

	t.Run("make", func(t *testing.T) {
		makefile := blocks["make"][0]
		targets := regexp.MustCompile(`(?m)^\.PHONY:\s*(.+)$`).FindStringSubmatch(makefile)
		if targets == nil {
			t.Fatalf("the Makefile recipe declares no .PHONY target:\n%s", makefile)
		}
		for _, fixture := range []string{"racy", "fixed"} {
			r := newCIRun(t, root, tmp, proxy, "make-"+fixture, fixture)
			precommitWrite(t, filepath.Join(r.work, "Makefile"), makefile)
			for _, target := range strings.Fields(targets[1]) {
				res := r.run(t, "make", target)
				if fixture == "racy" && !strings.Contains(res.out, "Error 1") {
					t.Errorf("make %s on the racy module: guardvet's exit 1 is not what failed the target:\n%s", target, res.out)
				}
				r.expect(t, fixture, res, finding, 2) // make's own code for a failed recipe
			}
		}

		// The pull-request command, in a clone of a repository whose
		// main is the racy module with this Makefile, checked out at a
		// branch that adds an unlocked read: the new finding only.
		cmds := regexp.MustCompile("`(make guardvet GUARDVETFLAGS=[^`\n]*)`").FindAllStringSubmatch(string(data), -1)
		if len(cmds) != 1 {
			t.Fatalf("docs/ci.md has %d `make guardvet GUARDVETFLAGS=...` commands, want 1 (the pull-request run of the Makefile target)", len(cmds))
		}
		r := newCIRun(t, root, tmp, proxy, "make-pr", "")
		upstream := r.upstream(t, root, version, "racy", false, "pr-newrace", map[string]string{"Makefile": makefile})
		r.git(t, r.work, "clone", "-q", "file://"+filepath.ToSlash(upstream), ".")
		r.git(t, r.work, "checkout", "-q", "--detach", "origin/feature")
		res := r.run(t, "bash", "-eo", "pipefail", "-c", cmds[0][1])
		if res.code != 2 || !strings.Contains(res.out, "Error 1") {
			t.Errorf("pull request adding a finding: exit %d, want make's 2 after guardvet's exit 1\n%s", res.code, res.out)
		}
		if !ciFinding(newLine).MatchString(res.out) {
			t.Errorf("pull request adding a finding: the output lacks it (want %s):\n%s", ciFinding(newLine), res.out)
		}
		if finding.MatchString(res.out) {
			t.Errorf("pull request adding a finding: the output has main's finding on a line the branch does not change (%s):\n%s", finding, res.out)
		}
	})

	t.Run("github-actions", func(t *testing.T) {
		var workflow struct {
			Name        string
			On          any `yaml:"on"`
			Permissions map[string]string
			Jobs        map[string]struct {
				RunsOn string `yaml:"runs-on"`
				Steps  []struct {
					ID   string
					Name string
					Uses string
					With map[string]string
					Run  string
					If   string `yaml:"if"`
				}
			}
		}
		dec := yaml.NewDecoder(strings.NewReader(blocks["yaml"][0]))
		dec.KnownFields(true)
		if err := dec.Decode(&workflow); err != nil {
			t.Fatalf("the GitHub Actions recipe does not parse as a workflow: %v", err)
		}
		if workflow.On == nil || len(workflow.Jobs) != 1 {
			t.Fatalf("the workflow needs an on: and exactly one job: %+v", workflow)
		}
		ciCheckTriggers(t, workflow.On)
		for name, job := range workflow.Jobs {
			if !strings.HasPrefix(job.RunsOn, "ubuntu-") {
				t.Errorf("job %s runs on %q; this test runs steps as an ubuntu runner would", name, job.RunsOn)
			}
			for _, c := range ciEvents(line, newLine, errLine) {
				r := newCIRun(t, root, tmp, proxy, "actions-"+c.name, "")
				upstream := r.upstream(t, root, version, c.main, c.baseline, c.change, nil)
				runner, expr := ciRunner(r, c.event)
				failed, uploaded, code := false, false, -1
				for i, st := range job.Steps {
					what := fmt.Sprintf("%s: step %d (%s%s)", c.name, i+1, st.Uses, st.ID)
					switch st.If {
					case "":
						if failed {
							t.Logf("%s: skipped after a failure", what)
							continue
						}
					case "always()":
					default:
						t.Fatalf("%s: if: %q is not simulated here", what, st.If)
					}
					with := map[string]string{}
					for k, v := range st.With {
						with[k] = ciExpand(t, what, v, expr)
					}
					action, _, _ := strings.Cut(st.Uses, "@")
					switch {
					case st.Run != "" && st.Uses != "":
						t.Fatalf("%s has both run: and uses:", what)
					case st.Run != "":
						path := filepath.Join(r.work, "..", fmt.Sprintf("step%d.sh", i+1))
						precommitWrite(t, path, ciExpand(t, what, st.Run, expr))
						res := runner.run(t, "bash", "--noprofile", "--norc", "-eo", "pipefail", path)
						if res.code != 0 {
							failed = true
						}
						if st.ID == "guardvet" {
							code = res.code
						}
					case action == "actions/checkout":
						ciCheckout(t, r, what, upstream, c.event, with)
					case action == "actions/setup-go":
						want := strings.TrimPrefix(runtime.Version(), "go")
						if v := with["go-version"]; v == "" || !strings.HasPrefix(want, v) {
							t.Errorf("%s: go-version %q, but this test runs Go %s", what, v, want)
						}
					case action == "github/codeql-action/upload-sarif":
						if workflow.Permissions["security-events"] != "write" {
							t.Errorf("%s: upload-sarif needs permissions: security-events: write", what)
						}
						ciCheckSARIF(t, what, filepath.Join(r.work, with["sarif_file"]), c.sarif)
						uploaded = true
					default:
						t.Fatalf("%s: action %s is not simulated here", what, st.Uses)
					}
				}
				if !uploaded {
					t.Errorf("%s: no SARIF was uploaded", c.name)
				}
				switch {
				case code == -1:
					t.Errorf("%s: the step with id guardvet did not run", c.name)
				case code != c.code:
					t.Errorf("%s: the guardvet step exited %d, want %d", c.name, code, c.code)
				}
				if want := c.code != 0; failed != want {
					t.Errorf("%s: the job failed = %v, want %v", c.name, failed, want)
				}
			}
		}
	})
	t.Logf("TIMING total: %v", time.Since(start).Round(time.Millisecond))
}

// ciServe writes a file:// module proxy in proxy that serves this working
// tree as thisModule@version. The tree is first copied to snapshot: the
// files git lists, tracked and untracked, minus the ignored ones.
func ciServe(t *testing.T, root, snapshot, proxy, version string) {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	for _, name := range strings.Split(string(list), "\x00") {
		if name == "" || strings.HasSuffix(name, "/") {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or a symlink
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(snapshot, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(proxy, filepath.FromSlash(thisModule), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	// CreateFromDir leaves out nested modules (testdata/corpus and the
	// fixture modules), vendor directories and .git, as the go command does.
	if err := modzip.CreateFromDir(&zbuf, module.Version{Path: thisModule, Version: version}, snapshot); err != nil {
		t.Fatalf("zipping the snapshot as %s@%s: %v", thisModule, version, err)
	}
	if _, err := zip.NewReader(bytes.NewReader(zbuf.Bytes()), int64(zbuf.Len())); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(snapshot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		t.Fatal(err)
	}
	precommitWrite(t, filepath.Join(dir, "list"), version+"\n")
	precommitWrite(t, filepath.Join(dir, version+".info"), string(info))
	precommitWrite(t, filepath.Join(dir, version+".mod"), string(gomod))
	precommitWrite(t, filepath.Join(dir, version+".zip"), zbuf.String())
}

// ciRun is one run of a recipe: a fresh copy of a fixture module (the
// checkout), or an empty directory for a git checkout, and a fresh GOPATH
// and guardvet result cache, as on a fresh CI machine.
type ciRun struct {
	base string // the run's directory
	work string // the checkout, base/checkout
	env  []string
}

// newCIRun makes a run's directory in tmp, with fixture (a directory of
// testdata/cirecipes) copied to the checkout, or an empty checkout for "".
func newCIRun(t *testing.T, root, tmp, proxy, name, fixture string) *ciRun {
	t.Helper()
	base := filepath.Join(tmp, name)
	work := filepath.Join(base, "checkout")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if fixture != "" {
		ciCopy(t, root, fixture, work)
	}
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	gopath := filepath.Join(base, "gopath")
	proxies := "file://" + filepath.ToSlash(proxy) + ",file://" + filepath.ToSlash(filepath.Join(goenv("GOMODCACHE"), "cache", "download"))
	if p := goenv("GOPROXY"); p != "" && p != "off" {
		proxies += "," + p
	}
	gitconfig := filepath.Join(base, "gitconfig")
	precommitWrite(t, gitconfig, "")
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOPATH", "GOBIN", "GOMODCACHE", "GOCACHE", "GOPROXY", "GONOSUMDB", "GOFLAGS", "PATH", "CI":
			continue
		}
		// The runner's own variables (ciRunner sets them), git's and
		// guardvet's.
		if strings.HasPrefix(name, "GITHUB_") || strings.HasPrefix(name, "RUNNER_") || strings.HasPrefix(name, "GIT_") || strings.HasPrefix(name, "GUARDVET") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GUARDVETCACHE="+filepath.Join(base, "guardvet-cache"),
		"GOPATH="+gopath,
		"GOMODCACHE="+filepath.Join(tmp, "gomodcache"),
		"GOCACHE="+goenv("GOCACHE"),
		"GOPROXY="+proxies,
		"GONOSUMDB="+thisModule,
		"GOFLAGS="+strings.TrimSpace(goenv("GOFLAGS")+" -modcacherw"),
		// actions/setup-go puts GOPATH/bin on PATH; so does a usual Go set-up.
		"PATH="+filepath.Join(gopath, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	return &ciRun{base: base, work: work, env: env}
}

// ciCopy copies the files of fixture, a directory of testdata/cirecipes,
// into dir, over what is there.
func ciCopy(t *testing.T, root, fixture, dir string) {
	t.Helper()
	src := filepath.Join(root, "integration", "testdata", "cirecipes", fixture)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		precommitWrite(t, filepath.Join(dir, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// git runs git in dir with the run's environment; it must succeed.
func (r *ciRun) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return precommitMust(t, r.env, dir, time.Minute, "git", args...)
}

// upstream makes the repository a CI job fetches from, base/upstream, and
// returns its directory. Its main branch is one commit: the fixture main,
// the files extra (name to content), and with baseline the overlay
// baselined (a .guardvet.yaml naming guardvet-baseline.json) and the
// baseline that `guardvet -write-baseline ./...` writes there, with
// guardvet@version from the module proxy, as a team adopting guardvet
// commits it. With change (an overlay directory), the branch feature adds
// one commit of its files, and refs/pull/1/merge is feature merged into
// main, what GitHub builds for a pull request.
func (r *ciRun) upstream(t *testing.T, root, version, main string, baseline bool, change string, extra map[string]string) string {
	t.Helper()
	dir := filepath.Join(r.base, "upstream")
	precommitGitInit(t, r.env, dir)
	ciCopy(t, root, main, dir)
	for name, content := range extra {
		precommitWrite(t, filepath.Join(dir, name), content)
	}
	if baseline {
		ciCopy(t, root, "baselined", dir)
		out, err := precommitRun(t, r.env, dir, 10*time.Minute, "go", "run", thisModule+"/cmd/guardvet@"+version, "-write-baseline", "./...")
		if err != nil {
			t.Fatalf("guardvet -write-baseline in %s: %v\n%s", dir, err, out)
		}
	}
	r.git(t, dir, "add", "-A")
	r.git(t, dir, "commit", "-q", "-m", "main: "+main)
	if change != "" {
		r.git(t, dir, "checkout", "-q", "-b", "feature")
		ciCopy(t, root, change, dir)
		r.git(t, dir, "add", "-A")
		r.git(t, dir, "commit", "-q", "-m", "feature: "+change)
		r.git(t, dir, "checkout", "-q", "--detach", "main")
		r.git(t, dir, "merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature")
		r.git(t, dir, "update-ref", "refs/pull/1/merge", "HEAD")
		r.git(t, dir, "update-ref", "refs/pull/1/head", "feature")
		r.git(t, dir, "checkout", "-q", "main")
	}
	return dir
}

// ciEvent is a case of the GitHub Actions job: an event on a repository
// made by ciRun.upstream, and what the job must do.
type ciEvent struct {
	name     string
	event    string // push (to main), or pull_request (into main, from feature)
	main     string // the fixture on main
	baseline bool   // with .guardvet.yaml and a baseline of main's findings
	change   string // pull_request: the overlay the pull request commits
	code     int    // the guardvet step's exit code; the job fails unless 0
	sarif    ciSARIF
}

// ciEvents are the cases the workflow runs for: pushes to main of the
// racy, fixed and broken modules, pull requests into the racy main that
// add an unlocked read or a locked one, and a push of the racy module
// with a baseline of its finding. line is the racy module's finding,
// newLine pr-newrace's and errLine broken's type error.
func ciEvents(line, newLine, errLine int) []ciEvent {
	at := func(l int) string { return fmt.Sprintf("counter/counter.go:%d", l) }
	return []ciEvent{
		{name: "push-racy", event: "push", main: "racy", code: 1, sarif: ciSARIF{results: []string{"guardedby " + at(line)}}},
		{name: "push-fixed", event: "push", main: "fixed", code: 0},
		{name: "push-broken", event: "push", main: "broken", code: 2, sarif: ciSARIF{errorAt: at(errLine)}},
		{name: "pr-newrace", event: "pull_request", main: "racy", change: "pr-newrace", code: 1, sarif: ciSARIF{results: []string{"guardedby " + at(newLine)}}},
		{name: "pr-clean", event: "pull_request", main: "racy", change: "pr-clean", code: 0},
		{name: "push-baselined", event: "push", main: "racy", baseline: true, code: 0},
	}
}

// ciRunner returns the run with the variables a GitHub-hosted runner sets
// for the event added to its environment, and the values of the
// ${{ github.* }} expressions ciExpand substitutes.
func ciRunner(r *ciRun, event string) (*ciRun, map[string]string) {
	expr := map[string]string{"github.event_name": event, "github.workspace": r.work}
	switch event {
	case "push":
		expr["github.ref"], expr["github.ref_name"] = "refs/heads/main", "main"
	case "pull_request":
		expr["github.ref"], expr["github.ref_name"] = "refs/pull/1/merge", "1/merge"
		expr["github.base_ref"], expr["github.head_ref"] = "main", "feature"
	}
	env := append(slices.Clone(r.env), "CI=true", "GITHUB_ACTIONS=true")
	for _, name := range slices.Sorted(maps.Keys(expr)) {
		env = append(env, "GITHUB_"+strings.ToUpper(strings.TrimPrefix(name, "github."))+"="+expr[name])
	}
	return &ciRun{base: r.base, work: r.work, env: env}, expr
}

// ciExpand substitutes the ${{ ... }} expressions of a step's run: or
// with: value that are in expr, and fails the test on any other.
func ciExpand(t *testing.T, what, s string, expr map[string]string) string {
	t.Helper()
	return regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`).ReplaceAllStringFunc(s, func(m string) string {
		name := strings.TrimSpace(m[3 : len(m)-2])
		v, ok := expr[name]
		if !ok {
			t.Fatalf("%s: the expression %s is not simulated here (for this event)", what, m)
		}
		return v
	})
}

// ciCheckout does what actions/checkout@v4 does on a GitHub-hosted runner
// for the event, with upstream as the repository: a new repository in the
// workspace with upstream as origin; with fetch-depth 0 every branch and
// tag fetched, else only the event's commit, that deep (1 by default);
// then the pushed main, or the pull request's merge commit, checked out.
func ciCheckout(t *testing.T, r *ciRun, what, upstream, event string, with map[string]string) {
	t.Helper()
	for k := range with {
		if k != "fetch-depth" {
			t.Fatalf("%s: actions/checkout input %s is not simulated here", what, k)
		}
	}
	depth := with["fetch-depth"]
	if depth == "" {
		depth = "1"
	}
	if _, err := strconv.Atoi(depth); err != nil {
		t.Fatalf("%s: fetch-depth %q is not a number", what, depth)
	}
	ref, local := "refs/heads/main", "refs/remotes/origin/main"
	if event == "pull_request" {
		ref, local = "refs/pull/1/merge", "refs/remotes/pull/1/merge"
	}
	r.git(t, r.work, "init", "-q")
	r.git(t, r.work, "remote", "add", "origin", "file://"+filepath.ToSlash(upstream))
	if depth == "0" {
		r.git(t, r.work, "fetch", "-q", "--prune", "--no-recurse-submodules", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
		if event == "pull_request" {
			r.git(t, r.work, "fetch", "-q", "--no-recurse-submodules", "origin", "+"+ref+":"+local)
		}
	} else {
		r.git(t, r.work, "fetch", "-q", "--no-tags", "--prune", "--no-recurse-submodules", "--depth="+depth, "origin", "+"+ref+":"+local)
	}
	if event == "pull_request" {
		r.git(t, r.work, "checkout", "-q", "--force", local)
	} else {
		r.git(t, r.work, "checkout", "-q", "--force", "-B", "main", local)
	}
}

// ciCheckTriggers checks that the workflow runs on pushes to main and on
// pull requests into it, the events ciEvents simulates.
func ciCheckTriggers(t *testing.T, on any) {
	t.Helper()
	events := map[string]any{}
	switch on := on.(type) {
	case string:
		events[on] = nil
	case []any:
		for _, e := range on {
			if name, ok := e.(string); ok {
				events[name] = nil
			}
		}
	case map[string]any:
		events = on
	}
	for _, name := range []string{"push", "pull_request"} {
		config, ok := events[name]
		if !ok {
			t.Errorf("the workflow does not run on %s (on: %v)", name, on)
			continue
		}
		filter, _ := config.(map[string]any)
		if branches, ok := filter["branches"].([]any); ok && !slices.Contains(branches, any("main")) {
			t.Errorf("the workflow runs on %s for the branches %v, not main", name, branches)
		}
	}
}

// ciFinding matches guardvet's finding on line of the fixtures'
// counter/counter.go, in text output.
func ciFinding(line int) *regexp.Regexp {
	return regexp.MustCompile(`counter/counter\.go:` + strconv.Itoa(line) + `:\d+: c\.n read while c\.mu is not known to be held`)
}

type ciResult struct {
	code int
	out  string
}

// run runs a command in the checkout and logs it.
func (r *ciRun) run(t *testing.T, name string, args ...string) ciResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = r.work, r.env
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	res := ciResult{out: string(out)}
	if err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok || ctx.Err() != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		res.code = exit.ExitCode()
	}
	script := ""
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".sh") {
		if data, err := os.ReadFile(args[len(args)-1]); err == nil {
			script = "\n" + string(data)
		}
	}
	t.Logf("$ (cd %s && %s %s)  [%v, exit %d]%s\n%s", r.work, name, strings.Join(args, " "), time.Since(start).Round(time.Millisecond), res.code, script, out)
	return res
}

// expect checks a recipe's outcome: on the racy module, exit code failure
// and guardvet's finding in the output; on the fixed one, exit 0.
func (r *ciRun) expect(t *testing.T, fixture string, res ciResult, finding *regexp.Regexp, failure int) {
	t.Helper()
	switch fixture {
	case "racy":
		if res.code != failure {
			t.Errorf("racy module: exit %d, want %d\n%s", res.code, failure, res.out)
		}
		if !finding.MatchString(res.out) {
			t.Errorf("racy module: the output lacks guardvet's finding (want %s):\n%s", finding, res.out)
		}
	case "fixed":
		if res.code != 0 {
			t.Errorf("fixed module: exit %d, want 0\n%s", res.code, res.out)
		}
	}
}

// ciSARIF is what the uploaded SARIF must hold.
type ciSARIF struct {
	results []string // "RULE FILE:LINE" of each result's locations
	// errorAt, "FILE:LINE", is where the error of a run that failed to
	// type-check is: the run has executionSuccessful false and an error
	// notification there. "": executionSuccessful true, no error.
	errorAt string
}

// ciCheckSARIF checks the file the upload step would upload: SARIF 2.1.0
// from guardvet, one run, with want's results and status.
func ciCheckSARIF(t *testing.T, what, path string, want ciSARIF) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: the SARIF file to upload: %v", what, err)
		return
	}
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }
			Region           struct{ StartLine int }
		}
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Name string }
			}
			Invocations []struct {
				ExecutionSuccessful        *bool
				ToolExecutionNotifications []struct {
					Level     string
					Message   struct{ Text string }
					Locations []location
				}
			}
			Results []struct {
				RuleID    string
				Locations []location
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Errorf("%s: %s is not JSON: %v\n%s", what, path, err, data)
		return
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "guardvet" {
		t.Errorf("%s: %s is not one SARIF 2.1.0 run of guardvet:\n%s", what, path, data)
		return
	}
	run := log.Runs[0]
	got := []string{}
	for _, r := range run.Results {
		for _, loc := range r.Locations {
			got = append(got, fmt.Sprintf("%s %s:%d", r.RuleID, loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine))
		}
	}
	if want.results == nil {
		want.results = []string{}
	}
	if fmt.Sprint(got) != fmt.Sprint(want.results) {
		t.Errorf("%s: SARIF results %v, want %v", what, got, want.results)
	}

	// The run's status: executionSuccessful, and the errors.
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil {
		t.Errorf("%s: %s: want one invocation with executionSuccessful, got %d invocations", what, path, len(run.Invocations))
		return
	}
	inv := run.Invocations[0]
	var errs []string
	for _, n := range inv.ToolExecutionNotifications {
		if n.Level != "error" {
			continue
		}
		at := "(no location)"
		for _, loc := range n.Locations {
			at = fmt.Sprintf("%s:%d", loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine)
		}
		errs = append(errs, at+": "+n.Message.Text)
	}
	if ok := want.errorAt == ""; *inv.ExecutionSuccessful != ok {
		t.Errorf("%s: executionSuccessful %v, want %v (errors: %q)", what, *inv.ExecutionSuccessful, ok, errs)
	}
	switch {
	case want.errorAt == "" && len(errs) > 0:
		t.Errorf("%s: a successful run with error notifications: %q", what, errs)
	case want.errorAt != "" && !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, want.errorAt+": ") }):
		t.Errorf("%s: no error notification at %s: %q", what, want.errorAt, errs)
	}
}
