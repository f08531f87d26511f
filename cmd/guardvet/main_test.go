package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var guardvet string // the built binary

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "guardvet-cmd")
	if err != nil {
		panic(err)
	}
	guardvet = filepath.Join(dir, "guardvet")
	if out, err := exec.Command("go", "build", "-o", guardvet, ".").CombinedOutput(); err != nil {
		panic("building guardvet: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return o.String(), e.String(), code
}

// writeModule writes a throwaway module: lib declares a guarded field and
// an unannotated lock helper; use touches the field from another package.
func writeModule(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"lib/lib.go": `package lib

import "sync"

type C struct {
	mu sync.Mutex
	N  int //guard:by mu
}

func (c *C) Lock()   { c.mu.Lock() }
func (c *C) Unlock() { c.mu.Unlock() }
`,
		"use/use.go": `package use

import "example.com/m/lib"

func Good(c *lib.C) {
	c.Lock()
	c.N++
	c.Unlock()
}

func Bad(c *lib.C) int {
	return c.N
}
`,
		"clean/clean.go": `package clean

import "sync"

var mu sync.Mutex

func F() { mu.Lock(); mu.Unlock() }
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const wantBad = "use/use.go:12:11: c.N read while c.mu is not known to be held"

func TestStandaloneExitCodes(t *testing.T) {
	dir := writeModule(t)
	_, stderr, code := run(t, dir, guardvet, "./...")
	if code != 3 {
		t.Errorf("findings: exit %d, want 3\n%s", code, stderr)
	}
	if !strings.Contains(stderr, wantBad) {
		t.Errorf("findings: missing %q in\n%s", wantBad, stderr)
	}
	if strings.Count(stderr, "\n") != 1 {
		t.Errorf("findings: want exactly one diagnostic (the helper Lock/Unlock must be understood), got\n%s", stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "./clean"); code != 0 || stderr != "" {
		t.Errorf("clean package: exit %d, output %q; want 0 and nothing", code, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-guardedby=false", "./..."); code != 0 {
		t.Errorf("-guardedby=false: exit %d, want 0\n%s", code, stderr)
	}
	if _, _, code := run(t, dir, guardvet, "./nosuch"); code != 1 {
		t.Errorf("missing package: exit %d, want 1", code)
	}
	if _, _, code := run(t, dir, guardvet, "-nosuchflag", "./..."); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
}

func TestTypeErrorsAreReportedNotCrashed(t *testing.T) {
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "clean", "broken.go"), []byte("package clean\n\nvar X int = \"s\"\n"), 0o644)
	_, stderr, code := run(t, dir, guardvet, "./clean")
	if code != 1 || !strings.Contains(stderr, "broken.go:3:13") || strings.Contains(stderr, "panic") {
		t.Errorf("type error: exit %d, want 1 with the type error position and no panic\n%s", code, stderr)
	}
}

func TestJSON(t *testing.T) {
	dir := writeModule(t)
	stdout, _, code := run(t, dir, guardvet, "-json", "./...")
	if code != 0 {
		t.Errorf("-json: exit %d, want 0 (findings are in the output)", code)
	}
	var tree map[string]map[string][]struct {
		Category string `json:"category"`
		Posn     string `json:"posn"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("-json output is not one JSON object: %v\n%s", err, stdout)
	}
	diags := tree["example.com/m/use"]["guardedby"]
	if len(diags) != 1 || diags[0].Category != "guardedby" || !strings.HasSuffix(diags[0].Posn, "use/use.go:12:11") {
		t.Errorf("-json: got %+v, want one guardedby diagnostic at use/use.go:12:11", diags)
	}
}

// TestGoVet runs the real go vet protocol (-V=full, -flags, one .cfg per
// package, facts through vetx files), with the guard crossing packages.
func TestGoVet(t *testing.T) {
	dir := writeModule(t)
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+guardvet, "./...")
	if code != 1 {
		t.Errorf("go vet: exit %d, want 1\n%s", code, stderr)
	}
	if !strings.Contains(stderr, wantBad) {
		t.Errorf("go vet: missing %q in\n%s", wantBad, stderr)
	}
	if strings.Contains(stderr, "use.go:7") {
		t.Errorf("go vet: the Lock helper's effect did not cross packages:\n%s", stderr)
	}
	if _, stderr, code := run(t, dir, "go", "vet", "-vettool="+guardvet, "-guardedby=false", "./..."); code != 0 {
		t.Errorf("go vet -guardedby=false: exit %d, want 0\n%s", code, stderr)
	}
}
