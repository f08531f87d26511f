//go:build integration

package integration

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
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
// Makefile target (```make) and a GitHub Actions job (```yaml). Each runs
// twice, on a fresh copy of a fixture module (testdata/cirecipes): racy,
// where it must fail and show guardvet's finding, and fixed, where it must
// pass.
//
// Which guardvet is installed. The recipes install guardvet with
// `go install github.com/guardvet/guardvet/cmd/guardvet@VERSION`. The test
// serves this working tree (the files git lists, tracked and untracked,
// minus what .gitignore excludes) as that version from a file:// module
// proxy, ahead of the module cache's own download directory and the usual
// GOPROXY, with GONOSUMDB for guardvet's module. Each recipe gets a fresh
// GOPATH (so a fresh module cache and bin directory); the build cache is
// shared. A recipe that names @latest gets the same snapshot.
//
// The sh block runs with bash -eo pipefail; the make block is the
// Makefile of the fixture, and `make TARGET` runs each target it declares
// .PHONY. The YAML is parsed, and its job's steps are run the way a
// GitHub-hosted ubuntu runner would run them: `run:` steps with
// `bash --noprofile --norc -eo pipefail`, skipped after a failure unless
// `if: always()`; actions/checkout is the fixture copy,
// actions/setup-go must ask for this Go's version (and puts GOPATH/bin on
// PATH), github/codeql-action/upload-sarif must find a valid SARIF file
// with the finding. Any other action, or another `if:`, fails the test,
// so that a new step in the recipe gets a check here.
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

	line := precommitMarkerLine(t, filepath.Join(root, "integration", "testdata", "cirecipes", "racy", "counter", "counter.go"), "the race:")
	finding := regexp.MustCompile(`counter/counter\.go:` + strconv.Itoa(line) + `:\d+: c\.n read while c\.mu is not known to be held`)

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
		for name, job := range workflow.Jobs {
			if !strings.HasPrefix(job.RunsOn, "ubuntu-") {
				t.Errorf("job %s runs on %q; this test runs steps as an ubuntu runner would", name, job.RunsOn)
			}
			for _, fixture := range []string{"racy", "fixed"} {
				r := newCIRun(t, root, tmp, proxy, "actions-"+fixture, fixture)
				failed, uploaded := false, false
				for i, st := range job.Steps {
					what := fmt.Sprintf("%s: step %d (%s%s)", fixture, i+1, st.Uses, st.ID)
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
					action, _, _ := strings.Cut(st.Uses, "@")
					switch {
					case st.Run != "" && st.Uses != "":
						t.Fatalf("%s has both run: and uses:", what)
					case st.Run != "":
						path := filepath.Join(r.work, "..", fmt.Sprintf("step%d.sh", i+1))
						precommitWrite(t, path, st.Run)
						res := r.run(t, "bash", "--noprofile", "--norc", "-eo", "pipefail", path)
						if res.code != 0 {
							failed = true
						}
					case action == "actions/checkout":
						// r.work is the checkout.
					case action == "actions/setup-go":
						want := strings.TrimPrefix(runtime.Version(), "go")
						if v := st.With["go-version"]; v == "" || !strings.HasPrefix(want, v) {
							t.Errorf("%s: go-version %q, but this test runs Go %s", what, v, want)
						}
					case action == "github/codeql-action/upload-sarif":
						if workflow.Permissions["security-events"] != "write" {
							t.Errorf("%s: upload-sarif needs permissions: security-events: write", what)
						}
						ciCheckSARIF(t, what, filepath.Join(r.work, st.With["sarif_file"]), fixture == "racy", line)
						uploaded = true
					default:
						t.Fatalf("%s: action %s is not simulated here", what, st.Uses)
					}
				}
				if !uploaded {
					t.Errorf("%s: no SARIF was uploaded", fixture)
				}
				if want := fixture == "racy"; failed != want {
					t.Errorf("%s: the job failed = %v, want %v", fixture, failed, want)
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
// checkout) and a fresh GOPATH.
type ciRun struct {
	work string
	env  []string
}

func newCIRun(t *testing.T, root, tmp, proxy, name, fixture string) *ciRun {
	t.Helper()
	base := filepath.Join(tmp, name)
	work := filepath.Join(base, "checkout")
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
		precommitWrite(t, filepath.Join(work, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
	var env []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "GOPATH", "GOBIN", "GOMODCACHE", "GOCACHE", "GOPROXY", "GONOSUMDB", "GOFLAGS", "PATH":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"GOPATH="+gopath,
		"GOCACHE="+goenv("GOCACHE"),
		"GOPROXY="+proxies,
		"GONOSUMDB="+thisModule,
		"GOFLAGS="+strings.TrimSpace(goenv("GOFLAGS")+" -modcacherw"),
		// actions/setup-go puts GOPATH/bin on PATH; so does a usual Go set-up.
		"PATH="+filepath.Join(gopath, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	return &ciRun{work: work, env: env}
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

// ciCheckSARIF checks the file the upload step would upload: SARIF 2.1.0
// from guardvet, with the finding on the racy module and none on the fixed.
func ciCheckSARIF(t *testing.T, what, path string, racy bool, line int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: the SARIF file to upload: %v", what, err)
		return
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Name string }
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
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
	var got []string
	for _, r := range log.Runs[0].Results {
		for _, loc := range r.Locations {
			got = append(got, fmt.Sprintf("%s %s:%d", r.RuleID, loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine))
		}
	}
	want := []string{}
	if racy {
		want = []string{fmt.Sprintf("guardedby counter/counter.go:%d", line)}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: SARIF results %v, want %v", what, got, want)
	}
}
