package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
)

var guardvet string // the built binary

func TestMain(m *testing.M) {
	// Every run analyses afresh unless a test turns the result cache on
	// (cache_test.go): a replay would hide what the other tests check.
	os.Setenv("GUARDVETCACHE", "off")
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
	return runCmd(t, exec.Command(name, args...), dir)
}

// runCmd runs cmd in dir and returns what it printed and its exit code.
func runCmd(t *testing.T, cmd *exec.Cmd, dir string) (stdout, stderr string, code int) {
	t.Helper()
	name, args := cmd.Path, cmd.Args[1:]
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
	writeFiles(t, dir, files)
	return dir
}

const wantBad = "use/use.go:12:11: c.N read while c.mu is not known to be held"

func TestStandaloneExitCodes(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	stdout, stderr, code := run(t, dir, guardvet, "./...")
	if code != 1 {
		t.Errorf("findings: exit %d, want 1\n%s", code, stderr)
	}
	// Findings are the output (stdout, so guardvet ./... | grep works),
	// each naming its rule; stderr stays empty.
	if !strings.Contains(stdout, wantBad) || !strings.HasSuffix(stdout, " (guardedby)\n") {
		t.Errorf("findings: missing %q, with its rule, on stdout:\n%s", wantBad, stdout)
	}
	if strings.Count(stdout, "\n") != 1 || stderr != "" {
		t.Errorf("findings: want exactly one diagnostic (the helper Lock/Unlock must be understood) and no stderr, got\n%s\nstderr:\n%s", stdout, stderr)
	}
	// clean has no directive: nothing on stdout, and the hint that says
	// so on stderr (TestHintWithoutDirectives).
	if stdout, stderr, code := run(t, dir, guardvet, "./clean"); code != 0 || stdout != "" || !strings.HasPrefix(stderr, "guardvet: no //guard: or checklocks directive in the 1 package checked") {
		t.Errorf("clean package: exit %d, stdout %q, stderr %q; want 0, nothing and the no-directive hint", code, stdout, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-guardedby=false", "./..."); code != 0 {
		t.Errorf("-guardedby=false: exit %d, want 0\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "./nosuch"); code != 2 || !strings.Contains(stderr, "nosuch") {
		t.Errorf("missing package: exit %d, want 2 and an error naming it\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet); code != 2 || !strings.Contains(stderr, "no packages given") {
		t.Errorf("no arguments: exit %d, want 2 and a hint\n%s", code, stderr)
	}
	// Go files stand for their packages: a pre-commit hook passes the
	// staged files.
	if stdout, stderr, code := run(t, dir, guardvet, "use/use.go"); code != 1 || !strings.Contains(stdout, wantBad) {
		t.Errorf("a file argument: exit %d, want 1 and the finding of its package\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := run(t, dir, guardvet, "clean/clean.go"); code != 0 || stdout != "" {
		t.Errorf("a clean file's package: exit %d\n%s%s", code, stdout, stderr)
	}
	// -C runs in a module below the working directory, as a pre-commit
	// hook at a repository's root must for a module in a subdirectory.
	if stdout, stderr, code := run(t, filepath.Dir(dir), guardvet, "-C", dir, "./..."); code != 1 || !strings.Contains(stdout, wantBad) {
		t.Errorf("-C: exit %d, want 1 and the finding, relative to the module\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-C", "nosuchdir", "./..."); code != 2 || !strings.Contains(stderr, "-C") {
		t.Errorf("-C to a missing directory: exit %d, want 2\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-unusedignore", "./..."); code != 0 {
		t.Errorf("-unusedignore alone: exit %d, want 0 (only that rule runs)\n%s", code, stderr)
	}
	if _, _, code := run(t, dir, guardvet, "-nosuchflag", "./..."); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
}

func TestTypeErrorsAreReportedNotCrashed(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "clean", "broken.go"), []byte("package clean\n\nvar X int = \"s\"\n"), 0o644)
	_, stderr, code := run(t, dir, guardvet, "./clean")
	if code != 2 || !strings.Contains(stderr, "broken.go:3:13") || strings.Contains(stderr, "panic") {
		t.Errorf("type error: exit %d, want 2 with the type error position and no panic\n%s", code, stderr)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	stdout, _, code := run(t, dir, guardvet, "-json", "./...")
	if code != 1 {
		t.Errorf("-json: exit %d, want 1 (findings exit 1 in every format)", code)
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
	t.Parallel()
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

func TestHelp(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, t.TempDir(), guardvet, "-help")
	for _, want := range []string{"Usage:", "go vet -vettool", "guardedby", "-sarif", "Exit codes:", "-config.infer"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-help does not mention %q on stdout:\n%s", want, stdout)
		}
	}
	if stderr != "" {
		t.Errorf("-help wrote to stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, "enable the config rule") {
		t.Errorf("-help lists config, which is options, as a rule")
	}
	// guardvet help is -help; guardvet help RULE prints the rule's manual.
	if stdout, _, code := run(t, t.TempDir(), guardvet, "help"); code != 0 || !strings.Contains(stdout, "Usage:") {
		t.Errorf("guardvet help: exit %d\n%s", code, stdout)
	}
	if stdout, _, code := run(t, t.TempDir(), guardvet, "help", "noblock"); code != 0 || !strings.HasPrefix(stdout, "noblock: ") || !strings.Contains(stdout, "-noblock.all") || !strings.Contains(stdout, "Manual: https://") {
		t.Errorf("guardvet help noblock: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := run(t, t.TempDir(), guardvet, "help", "nosuch"); code != 2 || !strings.Contains(stderr, "guardedby") {
		t.Errorf("guardvet help nosuch: exit %d, want 2 and the rule names\n%s", code, stderr)
	}
	// A bad flag is an error: it and one line saying where the usage is
	// go to stderr, exit 2; the whole usage would bury the error.
	if stdout, stderr, code := run(t, t.TempDir(), guardvet, "-nosuchflag"); code != 2 || stdout != "" || !strings.Contains(stderr, "nosuchflag") ||
		!strings.Contains(stderr, "guardvet -help") || strings.Count(stderr, "\n") > 2 {
		t.Errorf("bad flag: exit %d, stdout %q, want the error and a pointer to -help on stderr, in two lines:\n%s", code, stdout, stderr)
	}
	if code != 0 {
		t.Errorf("-help: exit %d, want 0", code)
	}
}

// TestSARIF validates the output against the SARIF 2.1.0 schema with a
// maintained validator, and checks what code scanning relies on.
func TestSARIF(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	os.WriteFile(filepath.Join(dir, "clean", "ignored.go"), []byte("package clean\n\nfunc G() int {\n\treturn 1 //guard:ignore nothing to hide\n}\n"), 0o644)
	stdout, stderr, code := run(t, dir, guardvet, "-sarif", "./...")
	if code != 1 {
		t.Errorf("-sarif: exit %d, want 1\n%s", code, stderr)
	}
	schema, err := filepath.Abs("../../testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	result, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+schema), gojsonschema.NewStringLoader(stdout))
	if err != nil {
		t.Fatalf("validating: %v", err)
	}
	if !result.Valid() {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", result.Errors(), stdout)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, HelpURI          string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID              string
				Level               string
				PartialFingerprints map[string]string
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				Fixes []struct{ Description struct{ Text string } }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	run0 := log.Runs[0]
	rules := map[string]string{}
	for _, r := range run0.Tool.Driver.Rules {
		rules[r.ID] = r.HelpURI
		if r.DefaultConfiguration.Level == "" {
			t.Errorf("rule %s has no default level", r.ID)
		}
	}
	if !strings.HasSuffix(rules["guardedby"], "/docs/rules/guardedby.md") || !strings.HasSuffix(rules["unusedignore"], "/docs/rules/unusedignore.md") {
		t.Errorf("rule helpUris do not point at the rules' pages in docs/rules: %v", rules)
	}
	got := map[string]bool{}
	for _, r := range run0.Results {
		loc := r.Locations[0].PhysicalLocation
		got[fmt.Sprintf("%s %s:%d", r.RuleID, loc.ArtifactLocation.URI, loc.Region.StartLine)] = true
		if r.PartialFingerprints["guardvet/v1"] == "" {
			t.Errorf("result %s has no partialFingerprints", r.RuleID)
		}
		if r.RuleID == "unusedignore" && (len(r.Fixes) != 1 || r.Fixes[0].Description.Text == "") {
			t.Errorf("unusedignore result carries no SARIF fix: %+v", r.Fixes)
		}
	}
	for _, want := range []string{"guardedby use/use.go:12", "unusedignore clean/ignored.go:4"} {
		if !got[want] {
			t.Errorf("SARIF lacks %q; has %v", want, got)
		}
	}
	// Fingerprints are stable across runs and do not depend on line numbers.
	again, _, _ := run(t, dir, guardvet, "-sarif", "./...")
	if again != stdout {
		t.Errorf("SARIF output differs between two runs")
	}
	src := filepath.Join(dir, "use", "use.go")
	body, _ := os.ReadFile(src)
	os.WriteFile(src, append([]byte("// a comment that moves every line down\n"), body...), 0o644)
	moved, _, _ := run(t, dir, guardvet, "-sarif", "./...")
	if fingerprints(t, moved) != fingerprints(t, stdout) {
		t.Errorf("fingerprints changed when lines moved:\n%s\n%s", fingerprints(t, stdout), fingerprints(t, moved))
	}
}

func fingerprints(t *testing.T, out string) string {
	var log struct {
		Runs []struct {
			Results []struct{ PartialFingerprints map[string]string }
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	var fps []string
	for _, r := range log.Runs[0].Results {
		fps = append(fps, r.PartialFingerprints["guardvet/v1"])
	}
	return strings.Join(fps, " ")
}

func TestFixAndDiff(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	file := filepath.Join(dir, "clean", "ignored.go")
	const before = "package clean\n\nfunc G() int {\n\treturn 1 //guard:ignore nothing to hide\n}\n"
	const after = "package clean\n\nfunc G() int {\n\treturn 1\n}\n"
	os.WriteFile(file, []byte(before), 0o644)
	stdout, stderr, code := run(t, dir, guardvet, "-diff", "./clean")
	if code != 0 || !strings.Contains(stdout, "-\treturn 1 //guard:ignore nothing to hide") || !strings.Contains(stdout, "+\treturn 1\n") {
		t.Errorf("-diff: exit %d, diff:\n%s\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != before {
		t.Errorf("-diff changed the file")
	}
	if _, stderr, code := run(t, dir, guardvet, "-fix", "./clean"); code != 0 {
		t.Errorf("-fix: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != after {
		t.Errorf("-fix wrote\n%s\nwant\n%s", b, after)
	}
	if _, stderr, code := run(t, dir, guardvet, "./clean"); code != 0 {
		t.Errorf("after -fix: exit %d, want a clean run\n%s", code, stderr)
	}
}

// checklocksModule is a small module annotated for gVisor's checklocks,
// with a deadlock-detecting mutex wrapper that embeds sync.Mutex.
var checklocksModule = map[string]string{
	"go.mod": "module example.com/pool\n\ngo 1.26\n",
	"syncx/mutex.go": `package syncx

import "sync"

// Mutex records its holder for deadlock reports.
type Mutex struct {
	sync.Mutex
	holder string
}

func (m *Mutex) LockAs(who string) { m.Lock(); m.holder = who }
`,
	"pool/pool.go": `package pool

import (
	"errors"
	"sync/atomic"

	"example.com/pool/syncx"
)

var ErrClosed = errors.New("pool closed")

type Conn struct{ id int }

type Pool struct {
	mu syncx.Mutex

	// +checklocks:mu
	idle []*Conn
	// +checklocks:mu
	closed bool
	// +checklocks:mu
	byID map[int]*Conn

	// +checkatomic
	gets int64
}

func New() *Pool {
	p := &Pool{}
	p.byID = map[int]*Conn{} // fresh object: no lock needed yet
	return p
}

func (p *Pool) Get() (*Conn, error) {
	atomic.AddInt64(&p.gets, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	return p.takeLocked(), nil
}

// +checklocks:p.mu
func (p *Pool) takeLocked() *Conn {
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c
	}
	c := &Conn{id: len(p.byID)}
	p.byID[c.id] = c
	return c
}

func (p *Pool) Put(c *Conn) {
	p.lock()
	defer p.unlock()
	if !p.closed {
		p.idle = append(p.idle, c)
	}
}

// +checklocksacquire:p.mu
func (p *Pool) lock() { p.mu.LockAs("pool") }

// +checklocksrelease:p.mu
func (p *Pool) unlock() { p.mu.Unlock() }

func (p *Pool) Len() int {
	p.mu.Lock()
	n := len(p.idle)
	p.mu.Unlock()
	return n
}

func (p *Pool) Gets() int64 { return atomic.LoadInt64(&p.gets) }

// +checklocksexclude:p.mu
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.idle = nil
}
`,
}

// TestChecklocksModuleUnchanged runs go vet -vettool=guardvet on a module
// annotated only for checklocks: no false positives, and an injected race
// is found.
func TestChecklocksModuleUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range checklocksModule {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := run(t, dir, "go", "vet", "-vettool="+guardvet, "./..."); code != 0 {
		t.Fatalf("go vet on a checklocks-annotated module: exit %d, want 0 (no false positives)\n%s", code, stderr)
	}
	racy := checklocksModule["pool/pool.go"] + "\nfunc (p *Pool) Closed() bool { return p.closed }\n"
	os.WriteFile(filepath.Join(dir, "pool", "pool.go"), []byte(racy), 0o644)
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+guardvet, "./...")
	if code != 1 || !strings.Contains(stderr, "p.closed read while p.mu is not known to be held") {
		t.Errorf("injected race: exit %d, want 1 and the p.closed diagnostic\n%s", code, stderr)
	}
}

// unannotatedModule has no directives: a registry whose workers map is
// locked at every site but one, a field its comment says mu guards, and a
// ...Locked helper.
var unannotatedModule = map[string]string{
	"go.mod": "module example.com/reg\n\ngo 1.26\n",
	"reg/reg.go": `package reg

import "sync"

type Registry struct {
	mu      sync.Mutex
	workers map[string]int
	gen     int // guarded by mu
}

func New() *Registry { return &Registry{workers: map[string]int{}} }

func (r *Registry) Add(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workers[k]++
	r.bumpLocked()
}

func (r *Registry) bumpLocked() { r.gen++ }

func (r *Registry) Remove(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.workers, k)
	r.bumpLocked()
}

func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.workers)
}

func (r *Registry) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.workers[k]
}

func (r *Registry) Each(f func(string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.workers {
		f(k)
	}
}

func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workers = map[string]int{}
}

func (r *Registry) Clear(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workers[k] = 0
}

func (r *Registry) Max() (max int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.workers {
		max = v
	}
	return max
}

func (r *Registry) Sum() (n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.workers {
		n += v
	}
	return n
}

func (r *Registry) Has(k string) bool {
	_, ok := r.workers[k]
	return ok
}

func (r *Registry) Gen() int { return r.gen }

func (r *Registry) Touch() {
	r.mu.Lock()
	r.mu.Unlock()
	r.bumpLocked()
}
`,
}

// TestInferSuggestFixThenCheck is the adoption path: -infer finds the
// unprotected accesses, -suggest -fix writes the directives, and from then
// on plain guardvet (no inference) reports the same accesses.
func TestInferSuggestFixThenCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, src := range unannotatedModule {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644)
	}
	if _, stderr, code := run(t, dir, guardvet, "./..."); code != 0 {
		t.Fatalf("without directives guardvet must be silent; exit %d\n%s", code, stderr)
	}
	stderr, _, code := run(t, dir, guardvet, "-infer", "./...") // findings: stdout
	for _, want := range []string{
		"reg/reg.go:80:13: r.workers is accessed with r.mu held at 9 of 10 sites",
		"reg/reg.go:84:41: r.gen is documented as guarded by mu",
		"reg/reg.go:89:14: call to r.bumpLocked needs r.mu locked (its name ends in Locked",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-infer: missing %q in\n%s", want, stderr)
		}
	}
	if code != 1 || strings.Count("\n"+stderr, "\nreg/reg.go:") != 3 {
		t.Errorf("-infer: exit %d, want 1 and exactly 3 findings\n%s", code, stderr)
	}

	stdout, stderr, code := run(t, dir, guardvet, "-suggest", "./...")
	if code != 0 || strings.Count(stdout, "\n") != 3 ||
		!strings.Contains(stdout, "reg/reg.go:7:2: add //guard:by mu to workers: r.mu is held at 9 of 10 accesses") ||
		!strings.Contains(stdout, `reg/reg.go:8:2: add //guard:by mu to gen: its comment says "guarded by mu"`) ||
		!strings.Contains(stdout, "add //guard:holds r.mu to bumpLocked: its name says the caller holds r.mu; 2 of 3 calls in this package do") ||
		!strings.Contains(stderr, "3 directives suggested") {
		t.Errorf("-suggest: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := run(t, dir, guardvet, "-suggest", "-fix", "./..."); code != 0 {
		t.Fatalf("-suggest -fix: exit %d\n%s", code, stderr)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "reg", "reg.go"))
	for _, want := range []string{"workers map[string]int //guard:by mu\n", "\t//guard:by mu\n\tgen ", "//guard:holds r.mu\nfunc (r *Registry) bumpLocked()"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("-suggest -fix: file lacks %q:\n%s", want, src)
		}
	}
	// Plain guardvet now checks the fields and the contract itself.
	stderr, _, code = run(t, dir, guardvet, "./...") // findings: stdout
	for _, want := range []string{"r.workers", "r.gen", "call to r.bumpLocked"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("after the fix, plain guardvet does not report %s:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("after the fix: exit %d, want 1\n%s", code, stderr)
	}
}

// fixturePackages are testdata/src packages with findings from several
// rules, spread over several packages and files; lockorder/b imports
// lockorder/a and globals/use imports globals by GOPATH path.
var fixturePackages = []string{
	"sessiontwin", "lockorder/...", "basic", "globals/...", "checkthenact",
	"noblock", "escape", "ignores", "baddirectives",
}

// runFixtures runs guardvet on fixturePackages in GOPATH mode, as
// analysistest loads them, from testdata/src so paths print relative.
func runFixtures(t *testing.T, env []string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := fixtureCommand(t, env, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("guardvet %v: %v, want exit 1 (findings)\n%s", args, err, e.String())
	}
	return o.String(), e.String()
}

// fixtureCommand is guardvet on fixturePackages in GOPATH mode, from
// testdata/src, with env added.
func fixtureCommand(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	root, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(guardvet, append(args, fixturePackages...)...)
	cmd.Dir = filepath.Join(root, "src")
	cmd.Env = append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// TestOutputIsDeterministic runs guardvet twice on several fixture
// packages in each output format, the second time on one thread so the
// analyses finish in another order, and requires the same bytes; the text
// and SARIF findings must come sorted by file, line, column, then rule.
func TestOutputIsDeterministic(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"text", "-json", "-sarif"} {
		t.Run(strings.TrimPrefix(mode, "-"), func(t *testing.T) {
			var args []string
			if mode != "text" {
				args = []string{mode}
			}
			out1, err1 := runFixtures(t, nil, args...)
			out2, err2 := runFixtures(t, []string{"GOMAXPROCS=1"}, args...)
			if err1 != "" || err2 != "" {
				t.Errorf("%s: unexpected stderr:\n%s\n%s", mode, err1, err2)
			}
			if out1 != out2 {
				t.Errorf("%s output differs between two runs:\n%s", mode, firstDifference(out1, out2))
			}
			switch mode {
			case "text":
				checkTextSorted(t, out1)
			case "-json":
				var tree map[string]map[string][]struct{ Posn string }
				if err := json.Unmarshal([]byte(out1), &tree); err != nil {
					t.Fatalf("-json output is not one JSON object: %v", err)
				}
				rules := map[string]bool{}
				for _, byRule := range tree {
					for rule, diags := range byRule {
						if len(diags) > 0 {
							rules[rule] = true
						}
					}
				}
				if len(tree) < 5 || len(rules) < 5 {
					t.Errorf("-json: %d packages and rules %v; the fixture set should give at least 5 of each", len(tree), rules)
				}
			case "-sarif":
				checkSARIFSorted(t, out1)
			}
		})
	}
}

// firstDifference shows the first line at which two outputs differ.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  first:  %s\n  second: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("one output is a prefix of the other (%d and %d lines)", len(al), len(bl))
}

type findingKey struct {
	file         string
	line, column int
	rule         string
}

func (a findingKey) less(b findingKey) bool {
	if a.file != b.file {
		return a.file < b.file
	}
	if a.line != b.line {
		return a.line < b.line
	}
	if a.column != b.column {
		return a.column < b.column
	}
	return a.rule < b.rule
}

// checkTextSorted parses "file:line:col: message" lines (related
// positions, indented by a tab, are skipped) and checks their order. Text
// does not print the rule, so ties on a position are not checked here.
func checkTextSorted(t *testing.T, out string) {
	t.Helper()
	var keys []findingKey
	files := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(line, "\t") {
			continue
		}
		var k findingKey
		parts := strings.SplitN(line, ":", 4)
		if len(parts) != 4 {
			t.Fatalf("text line is not file:line:col: message: %q", line)
		}
		k.file = parts[0]
		if _, err := fmt.Sscanf(parts[1]+" "+parts[2], "%d %d", &k.line, &k.column); err != nil {
			t.Fatalf("text line %q: %v", line, err)
		}
		keys = append(keys, k)
		files[k.file] = true
	}
	if len(files) < 5 {
		t.Errorf("text: findings in %d files; the fixture set should give at least 5", len(files))
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].less(keys[i-1]) {
			t.Errorf("text findings out of order: %v before %v", keys[i-1], keys[i])
		}
	}
}

// checkSARIFSorted checks that results come by file, line, column, rule.
func checkSARIFSorted(t *testing.T, out string) {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	var keys []findingKey
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		keys = append(keys, findingKey{loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn, r.RuleID})
		rules[r.RuleID] = true
	}
	if len(rules) < 5 {
		t.Errorf("SARIF: results from rules %v; the fixture set should give at least 5", rules)
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].less(keys[i-1]) {
			t.Errorf("SARIF results out of order: %v before %v", keys[i-1], keys[i])
		}
	}
}

// TestVersion: -version (and -V) print the module version, or the Version
// constant when the build has none; -V=full keeps go vet's protocol form,
// with the version inside and a content hash as the build ID.
func TestVersion(t *testing.T) {
	t.Parallel()
	versionLine := regexp.MustCompile(`^guardvet v\d+\.\d+\.\d+\S* (\(revision [0-9a-f]{12}(, modified)?\) )?go\d\S*\n$`)
	for _, flag := range []string{"-version", "-V"} {
		stdout, stderr, code := run(t, t.TempDir(), guardvet, flag)
		if code != 0 || !versionLine.MatchString(stdout) || stderr != "" {
			t.Errorf("guardvet %s: exit %d, stdout %q (want %s), stderr %q", flag, code, stdout, versionLine, stderr)
		}
	}
	full := regexp.MustCompile(`^\S*guardvet version devel guardvet-v\d+\.\d+\.\d+\S*( revision-[0-9a-f]{12}(-modified)?)? buildID=[0-9a-f]{64}\n$`)
	if stdout, stderr, code := run(t, t.TempDir(), guardvet, "-V=full"); code != 0 || !full.MatchString(stdout) {
		t.Errorf("guardvet -V=full: exit %d, stdout %q (want %s), stderr %q", code, stdout, full, stderr)
	}
}

// TestGoVetFlags runs the real go vet on the guardinfer fixture with the
// standalone spellings: -infer, -suggest and -guardinfer work under go vet
// as standalone; a standalone-only flag stops with a message naming it;
// the "Run '... help'" that go vet prints for an unknown flag works.
func TestGoVetFlags(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const fixture = "./testdata/src/guardinfer"
	const inferred = "testdata/src/guardinfer/infer.go:100:11: c.state is accessed with c.RWMutex held at 9 of 10 sites"
	const suggested = "testdata/src/guardinfer/evidence.go:15:2: add //guard:by mu to items"
	vet := func(args ...string) (string, int) {
		_, stderr, code := run(t, root, "go", append([]string{"vet", "-vettool=" + guardvet}, append(args, fixture)...)...)
		return stderr, code
	}
	if out, code := vet(); code != 0 {
		t.Errorf("go vet without inference: exit %d, want 0\n%s", code, out)
	}
	for _, flag := range []string{"-infer", "-guardinfer", "-config.infer"} {
		if out, code := vet(flag); code != 1 || !strings.Contains(out, inferred) || strings.Contains(out, "add //guard:by") {
			t.Errorf("go vet %s: exit %d, want 1 and %q\n%s", flag, code, inferred, out)
		}
	}
	if out, code := vet("-suggest"); code != 1 || !strings.Contains(out, suggested) || strings.Contains(out, "c.state is accessed") {
		t.Errorf("go vet -suggest: exit %d, want 1 and only suggestions such as %q\n%s", code, suggested, out)
	}
	if out, code := vet("-sarif"); code == 0 || !strings.Contains(out, "guardvet: -sarif works only standalone") || strings.Count(out, "works only standalone") != 1 {
		t.Errorf("go vet -sarif: exit %d, want an error naming -sarif once (for the one package asked for)\n%s", code, out)
	}
	// go vet's own answer to an unknown flag names guardvet help.
	out, code := vet("-nosuchflag")
	m := regexp.MustCompile(`Run '(\S+) help' for a full list`).FindStringSubmatch(out)
	if code == 0 || m == nil {
		t.Fatalf("go vet -nosuchflag: exit %d, no \"Run '... help'\" line:\n%s", code, out)
	}
	stdout, stderr, code := run(t, root, m[1], "help")
	if code != 0 || !strings.Contains(stdout, "Under go vet") || !strings.Contains(stdout, "-sarif, -test, -version") {
		t.Errorf("%s help (as go vet says): exit %d, want the usage with the go vet flags\n%s%s", m[1], code, stdout, stderr)
	}
}

// TestInferenceSwitch: naming the guardinfer rule turns inference on;
// its refinements without inference say so.
func TestInferenceSwitch(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const fixture = "./testdata/src/guardinfer"
	const inferred = "testdata/src/guardinfer/infer.go:100:11: c.state is accessed with c.RWMutex held at 9 of 10 sites"
	if stdout, stderr, code := run(t, root, guardvet, "-guardinfer", fixture); code != 1 || !strings.Contains(stdout, inferred+" ") {
		t.Errorf("-guardinfer: exit %d, want 1 and the inferred finding\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := run(t, root, guardvet, "-guardinfer", "-infer=false", fixture); code != 0 || stdout != "" {
		t.Errorf("-guardinfer -infer=false: exit %d, want 0 (an explicit -infer=false wins)\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := run(t, root, guardvet, "-config.infer.score=3", fixture); code != 0 || stdout != "" ||
		!strings.Contains(stderr, "-config.infer.score refines guard inference, which is off: add -infer") {
		t.Errorf("-config.infer.score without -infer: exit %d, want 0 and a note\n%s%s", code, stdout, stderr)
	}
	if stdout, _, _ := run(t, root, guardvet, "-help"); strings.Contains(stdout, "(off by default) (default true)") {
		t.Errorf("-help still says (off by default) (default true)")
	}
}

// TestLoadErrorsAreRelative: load and type errors print as findings do,
// file:line:col relative to the working directory (or the -C directory),
// and errors without a position start with "guardvet: ", not "-: ".
func TestLoadErrorsAreRelative(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.26\n",
		"bad/bad.go": "package bad\n\nvar X int = \"s\"\n",
		"imp/imp.go": "package imp\n\nimport _ \"example.com/nosuch\"\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what, stderr string, code int, want ...string) {
		t.Helper()
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", what, code)
		}
		for _, w := range want {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(w)).MatchString(stderr) {
				t.Errorf("%s: no line starting %q in stderr:\n%s", what, w, stderr)
			}
		}
		if strings.Contains(stderr, "-: ") || strings.Contains(stderr, dir) {
			t.Errorf("%s: a \"-: \" prefix or an absolute path in stderr:\n%s", what, stderr)
		}
	}
	_, stderr, code := run(t, dir, guardvet, "./...")
	check("./...", stderr, code,
		`bad/bad.go:3:13: cannot use "s" (untyped string constant) as int value`,
		`imp/imp.go:3:8: no required module provides package example.com/nosuch`)
	_, stderr, code = run(t, filepath.Dir(dir), guardvet, "-C", dir, "./bad")
	check("-C dir ./bad", stderr, code, `bad/bad.go:3:13: cannot use "s"`)
	_, stderr, code = run(t, filepath.Dir(dir), guardvet, filepath.Join(filepath.Base(dir), "bad", "bad.go"))
	check("a file below the working directory", stderr, code, filepath.Join(filepath.Base(dir), "bad", "bad.go")+`:3:13: cannot use "s"`)
	_, stderr, code = run(t, dir, guardvet, "./nosuch")
	check("./nosuch", stderr, code, "guardvet: stat nosuch: directory not found")
	_, stderr, code = run(t, dir, guardvet, "example.com/zzz")
	check("example.com/zzz", stderr, code, "guardvet: no required module provides package example.com/zzz")
}

// TestFilesAcrossModules: Go files of two modules of one repository, given
// together (as the guardvet-changed pre-commit hook passes staged files),
// are each checked in their own module; the findings come out merged and
// sorted, in text and in JSON.
func TestFilesAcrossModules(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	racy := func(pkg string) string {
		return "package " + pkg + "\n\nimport \"sync\"\n\ntype C struct {\n\tmu sync.Mutex\n\tn  int //guard:by mu\n}\n\nfunc (c *C) Peek() int { return c.n }\n"
	}
	for name, body := range map[string]string{
		"a/go.mod":   "module example.com/a\n\ngo 1.26\n",
		"a/p/p.go":   racy("p"),
		"b/go.mod":   "module example.com/b\n\ngo 1.26\n",
		"b/q/q.go":   racy("q"),
		"b/q/ok.go":  "package q\n",
		"b/r/r.go":   "package r\n",
		"c/README":   "not a module\n",
		"a/p/doc.go": "package p\n",
	} {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const wantA = "a/p/p.go:10:35: c.n read while c.mu is not known to be held"
	const wantB = "b/q/q.go:10:35: c.n read while c.mu is not known to be held"
	stdout, stderr, code := run(t, repo, guardvet, "b/q/q.go", "b/r/r.go", "a/p/p.go", "a/p/doc.go")
	if code != 1 || stderr != "" {
		t.Errorf("two modules: exit %d, want 1 and no stderr\n%s", code, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], wantA) || !strings.HasPrefix(lines[1], wantB) {
		t.Errorf("two modules: want the finding of each module, a's first:\n%s", stdout)
	}
	// From inside one module, a file of the other.
	if stdout, stderr, code := run(t, filepath.Join(repo, "a"), guardvet, "p/p.go", "../b/q/q.go"); code != 1 ||
		!strings.Contains(stdout, "p/p.go:10:35") || !strings.Contains(stdout, filepath.Join(repo, "b", "q", "q.go")+":10:35") {
		t.Errorf("a file of another module from inside a module: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = run(t, repo, guardvet, "-json", "a/p/p.go", "b/q/q.go")
	var tree map[string]map[string][]struct{ Posn string }
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil || code != 1 {
		t.Fatalf("-json over two modules: exit %d, not one JSON object (%v):\n%s", code, err, stdout)
	}
	if len(tree["example.com/a/p"]["guardedby"]) != 1 || len(tree["example.com/b/q"]["guardedby"]) != 1 {
		t.Errorf("-json over two modules: want one finding in each module's package:\n%s", stdout)
	}
	// A module with a type error and a clean one: the error wins the exit
	// code, and the other module is still checked.
	os.WriteFile(filepath.Join(repo, "b", "r", "r.go"), []byte("package r\n\nvar X int = \"s\"\n"), 0o644)
	stdout, stderr, code = run(t, repo, guardvet, "a/p/p.go", "b/r/r.go")
	if code != 2 || !strings.HasPrefix(stdout, wantA) || !strings.HasPrefix(stderr, "b/r/r.go:3:13: ") {
		t.Errorf("a broken module next to a racy one: exit %d, want 2, a's finding and b's error\n%s%s", code, stdout, stderr)
	}
}

// TestSharedSwitch: the shared rule is off by default; naming it (-shared)
// runs it alone and turns it on, -config.shared adds it to the others.
func TestSharedSwitch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module sharedswitch\n\ngo 1.24\n",
		"a.go":   strings.Replace(sharedRace, "package PKG", "package sharedswitch", 1),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const finding = "a.go:12:4: err is written in the goroutine started at a.go:10 and written in another instance of it at a.go:12"
	if stdout, stderr, code := run(t, dir, guardvet, "./..."); code != 0 || stdout != "" {
		t.Errorf("default: exit %d, want 0 and nothing (the rule is off)\n%s%s", code, stdout, stderr)
	}
	for _, flags := range [][]string{{"-shared"}, {"-config.shared"}, {"-shared", "-guardedby"}} {
		if stdout, stderr, code := run(t, dir, guardvet, append(flags, "./...")...); code != 1 || !strings.Contains(stdout, finding) {
			t.Errorf("%v: exit %d, want 1 and %q\n%s%s", flags, code, finding, stdout, stderr)
		}
	}
	if stdout, stderr, code := run(t, dir, guardvet, "-config.shared", "-shared=false", "./..."); code != 0 || stdout != "" {
		t.Errorf("-config.shared -shared=false: exit %d, want 0 (the rule switched off)\n%s%s", code, stdout, stderr)
	}
	// Under go vet: the same switches.
	vet := func(args ...string) (string, int) {
		_, stderr, code := run(t, dir, "go", append([]string{"vet", "-vettool=" + guardvet}, append(args, "./...")...)...)
		return stderr, code
	}
	if out, code := vet(); code != 0 {
		t.Errorf("go vet: exit %d, want 0 (the rule is off)\n%s", code, out)
	}
	for _, flag := range []string{"-shared", "-config.shared"} {
		if out, code := vet(flag); code != 1 || !strings.Contains(out, finding) {
			t.Errorf("go vet %s: exit %d, want 1 and %q\n%s", flag, code, finding, out)
		}
	}
}

// TestDirectiveFreeRunSkipsSummaries: with no directive anywhere in the
// load, guardvet skips the summaries only annotated packages read
// (-config.summaries); with one, an unannotated helper package is still
// summarised for the annotated package that calls it. The self-deadlock
// below is found only through helper.L.Acquire's summarised effect.
func TestDirectiveFreeRunSkipsSummaries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	app := func(directive string) string {
		return `package app

import (
	"sync"

	"example.com/m/helper"
)

type S struct {
	mu sync.Mutex
	n  int ` + directive + `
	l  helper.L
}

func (s *S) Twice() {
	s.l.Acquire()
	s.l.Acquire()
	s.l.Release()
	s.l.Release()
}
`
	}
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("helper/helper.go", `package helper

import "sync"

type L struct{ mu sync.Mutex }

func (l *L) Acquire() { l.mu.Lock() }
func (l *L) Release() { l.mu.Unlock() }
`)
	write("app/app.go", app("//guard:by mu"))
	stdout, stderr, code := run(t, dir, guardvet, "./...")
	if want := "app/app.go:17:13: call to s.l.Acquire locks s.l.mu, which is already locked here"; code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("annotated app over an unannotated helper: exit %d, want 1 and %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}
	write("app/app.go", app(""))
	if stdout, stderr, code := run(t, dir, guardvet, "./..."); code != 0 || stdout != "" || !strings.HasPrefix(stderr, "guardvet: no //guard: or checklocks directive in the 2 packages checked") {
		t.Errorf("no directive anywhere: exit %d, stdout %q, stderr %q; want 0, nothing and the no-directive hint", code, stdout, stderr)
	}
	// Forcing the summaries off loses the helper's effect: the check
	// above depends on the driver leaving them on.
	write("app/app.go", app("//guard:by mu"))
	if stdout, _, _ := run(t, dir, guardvet, "-config.summaries=false", "./..."); strings.Contains(stdout, "s.l.Acquire locks") {
		t.Errorf("-config.summaries=false still found the helper's effect:\n%s", stdout)
	}
}

// TestTestVariantReportedOnce: a package and its test variant share files,
// and an inferred guard's finding in both may differ in its counts (here
// the test file calls peek without the lock, so in the variant peek's
// callers no longer prove the lock held). One finding is printed, the
// package's, in every format.
func TestTestVariantReportedOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package p\n\nimport \"sync\"\n\ntype C struct {\n\tmu sync.Mutex\n\tn  int\n}\n\nfunc (c *C) Bad() int { return c.n }\n\n")
	for i := range 20 {
		fmt.Fprintf(&src, "func (c *C) Set%d() { c.mu.Lock(); c.n = %d; c.mu.Unlock() }\n", i, i)
	}
	src.WriteString("\nfunc (c *C) peek() int { return c.n }\n\nfunc (c *C) Peek() int { c.mu.Lock(); defer c.mu.Unlock(); return c.peek() }\n")
	for name, body := range map[string]string{
		"go.mod":    "module example.com/v\n\ngo 1.26\n",
		"p.go":      src.String(),
		"p_test.go": "package p\n\nfunc viaTest(c *C) int { return c.peek() }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const want = "p.go:10:34: c.n is accessed with c.mu held at 21 of 22 sites"
	stdout, stderr, code := run(t, dir, guardvet, "-infer", "./...")
	if code != 1 || strings.Count(stdout, "p.go:10:34:") != 1 || !strings.HasPrefix(stdout, want) {
		t.Errorf("-infer on a package with tests: exit %d, want 1 and the package's finding once (%q)\n%s%s", code, want, stdout, stderr)
	}
	stdout, _, _ = run(t, dir, guardvet, "-infer", "-test=false", "./...")
	if strings.Count(stdout, "p.go:10:34:") != 1 {
		t.Errorf("-infer -test=false: want the finding once\n%s", stdout)
	}
	stdout, _, _ = run(t, dir, guardvet, "-infer", "-json", "./...")
	if n := strings.Count(stdout, `"posn"`); n != 1 {
		t.Errorf("-infer -json on a package with tests: %d findings, want 1\n%s", n, stdout)
	}
}

// writeFiles writes files (path → contents) under dir, making their
// directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
