package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// brokenModule is writeModule's module with a type error in use: the
// guarded field's package still checks, the importer does not.
func brokenModule(t *testing.T) string {
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "use", "broken.go"), []byte("package use\n\nvar X int = \"s\"\n"), 0o644)
	return dir
}

// TestJSONTypeErrors: a package that fails to type-check has one -json
// entry carrying its errors, not a "failed prerequisites" per analyzer.
func TestJSONTypeErrors(t *testing.T) {
	t.Parallel()
	stdout, _, code := run(t, brokenModule(t), guardvet, "-json", "./...")
	if code != 2 {
		t.Errorf("-json on a type error: exit %d, want 2", code)
	}
	if strings.Contains(stdout, "failed prerequisites") {
		t.Errorf("-json cascades the type error through every analyzer:\n%s", stdout)
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("-json output is not one JSON object: %v\n%s", err, stdout)
	}
	entry := tree["example.com/m/use"]
	var tc struct{ Error string }
	if len(entry) != 1 || json.Unmarshal(entry["typecheck"], &tc) != nil || !strings.Contains(tc.Error, "use/broken.go:3:13") {
		t.Errorf("-json: the broken package's entry is %s, want only {\"typecheck\": {\"error\": \"use/broken.go:3:13: ...\"}}", stdout)
	}
}

// sarifStatus is what TestSARIFRunStatus reads of a SARIF log.
type sarifStatus struct {
	Runs []struct {
		Tool struct {
			Driver struct{ Rules []struct{ ID string } }
		}
		Invocations []struct {
			ExecutionSuccessful        *bool
			ToolExecutionNotifications []struct {
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
}

// TestSARIFRunStatus: a run that fails to type-check says so in the SARIF
// log (an upload with if: always() must not read as a clean scan), a run
// that succeeds says that, and config, which is options, is not a rule.
func TestSARIFRunStatus(t *testing.T) {
	t.Parallel()
	parse := func(out string) sarifStatus {
		var log sarifStatus
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
			t.Fatalf("SARIF: want one run with one invocation: %v\n%s", err, out)
		}
		return log
	}
	stdout, _, code := run(t, brokenModule(t), guardvet, "-sarif", "./...")
	inv := parse(stdout).Runs[0].Invocations[0]
	if code != 2 || inv.ExecutionSuccessful == nil || *inv.ExecutionSuccessful {
		t.Errorf("-sarif on a type error: exit %d, executionSuccessful %v; want 2 and false", code, inv.ExecutionSuccessful)
	}
	if n := inv.ToolExecutionNotifications; len(n) != 1 || n[0].Level != "error" || len(n[0].Locations) != 1 ||
		n[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "use/broken.go" || n[0].Locations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Errorf("-sarif on a type error: notifications %+v, want the error at use/broken.go:3", n)
	}
	if _, _, code := run(t, t.TempDir(), guardvet, "-sarif", "./nosuch"); code != 2 {
		t.Errorf("-sarif on a missing package: exit %d, want 2", code)
	}
	stdout, _, _ = run(t, writeModule(t), guardvet, "-sarif", "./...")
	log := parse(stdout)
	if inv := log.Runs[0].Invocations[0]; inv.ExecutionSuccessful == nil || !*inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 0 {
		t.Errorf("-sarif on a module that checks: invocation %+v, want executionSuccessful true and no notifications", inv)
	}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if r.ID == "config" {
			t.Errorf("SARIF lists config, which holds options and reports nothing, as a rule")
		}
	}
}

// TestSARIFWhenNothingLoads: a run that cannot analyse anything still
// writes a SARIF log, marked unsuccessful.
func TestSARIFWhenNothingLoads(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	stdout, stderr, code := run(t, dir, guardvet, "-sarif", "./nosuch/...")
	var log sarifStatus
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("-sarif matching nothing: exit %d, want a SARIF log: %v\n%s\n%s", code, err, stdout, stderr)
	}
	if inv := log.Runs[0].Invocations[0]; code != 2 || *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) == 0 {
		t.Errorf("-sarif matching nothing: exit %d, invocation %+v; want 2, unsuccessful, with the error", code, inv)
	}
}

// TestSARIFWhenSetUpFails: a run stopped before the analysis (a bad
// configuration file, a missing baseline, an unknown revision) still
// writes a SARIF log, marked unsuccessful, with the error; the
// configuration file's error is located at its line.
func TestSARIFWhenSetUpFails(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	for _, c := range []struct {
		args []string
		conf string
		file string
	}{
		{args: []string{"-baseline", "missing.json"}},
		{args: []string{"-new-from-rev", "nosuch"}},
		{conf: "overides: []\n", file: ".guardvet.yaml"},
	} {
		os.Remove(filepath.Join(dir, ".guardvet.yaml"))
		if c.conf != "" {
			os.WriteFile(filepath.Join(dir, ".guardvet.yaml"), []byte(c.conf), 0o644)
		}
		stdout, stderr, code := run(t, dir, guardvet, append(append([]string{"-sarif"}, c.args...), "./...")...)
		var log sarifStatus
		if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
			t.Errorf("%v %q: exit %d, want a SARIF log: %v\n%s%s", c.args, c.conf, code, err, stdout, stderr)
			continue
		}
		inv := log.Runs[0].Invocations[0]
		if code != 2 || *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 {
			t.Errorf("%v %q: exit %d, invocation %+v; want 2, unsuccessful, with the error", c.args, c.conf, code, inv)
			continue
		}
		if n := inv.ToolExecutionNotifications[0]; c.file != "" && (len(n.Locations) != 1 || n.Locations[0].PhysicalLocation.ArtifactLocation.URI != c.file) {
			t.Errorf("%q: notification %+v, want it located in %s", c.conf, n, c.file)
		}
	}
}

// TestJSONCategoryIsRuleName: a malformed directive's category is its
// rule's name, as the JSON key, the SARIF ruleId and -directives=false
// spell it.
func TestJSONCategoryIsRuleName(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "clean", "bad.go"), []byte("package clean\n\nimport \"sync\"\n\ntype T struct {\n\tmu sync.Mutex\n\tn  int //guard:by nosuch\n}\n"), 0o644)
	stdout, _, _ := run(t, dir, guardvet, "-json", "./clean")
	var tree map[string]map[string][]struct{ Category string }
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatal(err)
	}
	diags := tree["example.com/m/clean"]["directives"]
	if len(diags) == 0 {
		t.Fatalf("no directives finding for a guard naming no field:\n%s", stdout)
	}
	for _, d := range diags {
		if d.Category != "directives" {
			t.Errorf("a directives finding has category %q, want the rule's name, directives", d.Category)
		}
	}
}

// TestHelpRough: help names every rule asked for, config is options (its
// flags, not developer notes), the header does not claim every rule is on
// by default, and counts agree with their nouns.
func TestHelpRough(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stdout, _, code := run(t, dir, guardvet, "help", "guardedby", "lockorder")
	if code != 0 || !strings.HasPrefix(stdout, "guardedby: ") || !strings.Contains(stdout, "\nlockorder: ") {
		t.Errorf("guardvet help guardedby lockorder: exit %d, want both manuals\n%s", code, stdout)
	}
	if _, stderr, code := run(t, dir, guardvet, "help", "guardedby", "nosuch"); code != 2 || !strings.Contains(stderr, `"nosuch"`) {
		t.Errorf("guardvet help guardedby nosuch: exit %d, want 2 naming nosuch\n%s", code, stderr)
	}
	stdout, _, code = run(t, dir, guardvet, "help", "config")
	if code != 0 || !strings.Contains(stdout, "not a rule") || !strings.Contains(stdout, "-config.infer\n") ||
		strings.Contains(stdout, "Requires") || strings.Contains(stdout, "-config.readers") {
		t.Errorf("guardvet help config: exit %d, want the user's options and no developer notes or internal flags\n%s", code, stdout)
	}
	stdout, _, _ = run(t, dir, guardvet, "-help")
	if strings.Contains(stdout, "each on by default") {
		t.Errorf("-help says every rule is on by default, then marks some off:\n%s", stdout)
	}
	if strings.Contains(stdout, "-config.readers") || strings.Contains(stdout, "-config.roots") || !strings.Contains(stdout, "-config.infer.score") {
		t.Errorf("-help lists the internal flags the driver sets itself, or drops a user's:\n%s", stdout)
	}
}

// TestPlurals: one of a thing is not "1 things".
func TestPlurals(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "clean", "ignored.go"), []byte("package clean\n\nfunc G() int {\n\treturn 1 //guard:ignore nothing to hide\n}\n"), 0o644)
	_, stderr, _ := run(t, dir, guardvet, "-diff", "./clean")
	if !strings.Contains(stderr, "1 suggested fix shown; 0 findings have no fix") {
		t.Errorf("-diff with one fix: %q", stderr)
	}
	reg := t.TempDir()
	for name, body := range unannotatedModule {
		os.MkdirAll(filepath.Dir(filepath.Join(reg, name)), 0o755)
		os.WriteFile(filepath.Join(reg, name), []byte(body), 0o644)
	}
	_, stderr, _ = run(t, reg, guardvet, "-suggest", "./...")
	if strings.Contains(stderr, "1 directives") {
		t.Errorf("-suggest: %q", stderr)
	}
}

// sharedRace is a file with one finding of the shared rule, for a package
// of its own.
const sharedRace = `package PKG

import "sync"

func F(n int) error {
	var wg sync.WaitGroup
	var err error
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err = g(i)
		}()
	}
	wg.Wait()
	return err
}

func g(int) error { return nil }
`

// TestInferAndShared: -infer -shared runs both guard inference and the
// shared rule, standalone and under go vet; -shared alone runs the shared
// rule alone.
func TestInferAndShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range unannotatedModule {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	pkg := ""
	for name, body := range unannotatedModule {
		if strings.HasSuffix(name, ".go") {
			pkg = filepath.Dir(name)
			first, _, _ := strings.Cut(body, "\n")
			os.WriteFile(filepath.Join(dir, pkg, "shared.go"), []byte(strings.Replace(sharedRace, "package PKG", first, 1)), 0o644)
			break
		}
	}
	stdout, stderr, _ := run(t, dir, guardvet, "-infer", "-shared", "./...")
	if !strings.Contains(stdout, "(guardinfer)") || !strings.Contains(stdout, "(shared)") {
		t.Errorf("-infer -shared: want findings of guardinfer and shared\n%s%s", stdout, stderr)
	}
	stdout, _, _ = run(t, dir, guardvet, "-shared", "./...")
	if strings.Contains(stdout, "(guardinfer)") || !strings.Contains(stdout, "(shared)") {
		t.Errorf("-shared: want the shared rule's finding alone\n%s", stdout)
	}
	_, vetOut, _ := run(t, dir, "go", "vet", "-vettool="+guardvet, "-infer", "-shared", "./...")
	if !strings.Contains(vetOut, "is written in the goroutine") || !strings.Contains(vetOut, "is accessed with r.mu held at") {
		t.Errorf("go vet -infer -shared: want findings of guardinfer and shared\n%s", vetOut)
	}
}
