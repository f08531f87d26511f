package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goVetFixture runs go vet -vettool=guardvet with args on testdata/src
// packages in GOPATH mode, from testdata/src so paths print relative.
func goVetFixture(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + guardvet}, args...)...)
	cmd.Dir = filepath.Join(root, "src")
	cmd.Env = append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("go vet %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

// TestGoVetOutputIsDeterministic runs go vet several times on packages
// where several rules report, and requires the same bytes each time: each
// package's findings sorted by position, their related positions in
// their messages. go vet (Go 1.26) asks the tool for JSON and prints it
// itself, walking a package's analyzers in map order, its cache's replays
// included: guardvet files a package's findings under one name, sorted.
// The order of the packages is go vet's: the order they finish in, one
// order with -p=1.
func TestGoVetOutputIsDeterministic(t *testing.T) {
	t.Parallel()
	// sessiontwin: guardedby, lockorder, noblock and checkthenact report.
	args := []string{"-p=1", "sessiontwin", "lockorder/...", "noblock", "checkthenact", "escape"}
	_, first, code := goVetFixture(t, args...)
	if code != 1 || strings.Count(first, "\n") < 20 {
		t.Fatalf("go vet %v: exit %d, want 1 and findings\n%s", args, code, first)
	}
	for i := 0; i < 6; i++ {
		if _, again, _ := goVetFixture(t, args...); again != first {
			t.Fatalf("go vet %v printed something else on run %d:\n%s", args, i+2, firstDifference(first, again))
		}
	}
	var prev findingKey
	files := map[string]bool{} // each file's findings come together, sorted
	related := 0
	for _, line := range strings.Split(strings.TrimSuffix(first, "\n"), "\n") {
		var k findingKey
		parts := strings.SplitN(line, ":", 4)
		if len(parts) != 4 {
			t.Fatalf("go vet line is not file:line:col: message: %q", line)
		}
		if strings.HasPrefix(parts[3], " \t") {
			t.Errorf("go vet printed a related position as a line of its own: %q", line)
			continue
		}
		related += strings.Count(parts[3], "; related: ")
		k.file = parts[0]
		if _, err := fmt.Sscanf(parts[1]+" "+parts[2], "%d %d", &k.line, &k.column); err != nil {
			t.Fatalf("go vet line %q: %v", line, err)
		}
		switch {
		case k.file != prev.file && files[k.file]:
			t.Errorf("go vet: the findings in %s are not together", k.file)
		case k.file == prev.file && k.less(prev):
			t.Errorf("go vet findings out of order: %v before %v", prev, k)
		}
		files[k.file] = true
		prev = k
	}
	if related < 5 || len(files) < 5 {
		t.Errorf("go vet %v: %d related positions in %d files, want at least 5 of each (the fixtures')\n%s", args, related, len(files), first)
	}

	// go vet -json passes the same JSON through: one entry per package,
	// the rule in each diagnostic's category.
	const pkg = "sessiontwin"
	stdout, stderr, code := goVetFixture(t, "-json", pkg)
	var tree map[string]map[string][]struct{ Category, Posn string }
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil || code != 0 {
		t.Fatalf("go vet -json: exit %d, %v\n%s%s", code, err, stdout, stderr)
	}
	rules := map[string]bool{}
	for _, d := range tree[pkg]["guardvet"] {
		rules[d.Category] = true
	}
	if len(tree) != 1 || len(tree[pkg]) != 1 || len(rules) != 4 {
		t.Errorf("go vet -json: want %s → guardvet → findings of 4 rules, by category; got rules %v in\n%s", pkg, rules, stdout)
	}
}
