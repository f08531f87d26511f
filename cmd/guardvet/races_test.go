package main_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// counterLib is a library whose Counter updates last after releasing the
// lock it takes for n, and reads it in Last with none: a race between
// its exported methods, which a library run takes as entry points.
const counterLib = `package lib

import "sync"

type Counter struct {
	mu   sync.Mutex
	n    int
	last int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.last = c.n
}

func (c *Counter) Last() int { return c.last }
`

// racesModule writes a module whose main serves a session's terminal
// from three handlers with no lock in common (the race this project
// started from) and a counter every handler takes a lock for.
func racesModule(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/term\n\ngo 1.26\n",
		"main.go": `package main

import (
	"net/http"
	"os"
	"sync"
)

type Session struct {
	mu    sync.Mutex
	count int
	ptmx  *os.File
}

func (s *Session) Attach() { s.ptmx, _ = os.Open("/dev/ptmx") }

func (s *Session) Resize() {
	s.mu.Lock()
	s.count++
	s.mu.Unlock()
	if s.ptmx != nil {
		s.ptmx.Sync()
	}
}

func main() {
	s := &Session{}
	http.HandleFunc("/attach", func(http.ResponseWriter, *http.Request) { s.Attach() })
	http.HandleFunc("/resize", func(http.ResponseWriter, *http.Request) { s.Resize() })
	http.ListenAndServe(":8080", nil)
}
`,
	}
	writeFiles(t, dir, files)
	return dir
}

// TestRacesUnreachedAPI runs guardvet races on a module with a library
// package and an example main that does not use it: with the main named
// the run says which of the library's methods it did not look at, and
// with the library named alone it reports the library's race.
func TestRacesUnreachedAPI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/libmain\n\ngo 1.26\n",
		"lib/lib.go":       counterLib,
		"cmd/demo/main.go": "package main\n\nfunc main() {}\n",
	}
	writeFiles(t, dir, files)
	stdout, stderr, code := run(t, dir, guardvet, "races", "./...")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "not analysed: 2 exported methods of types that lock their own fields, which no main or test named here reaches") {
		t.Errorf("with the main named: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = run(t, dir, guardvet, "races", "./lib/...")
	if code != 1 || !strings.HasPrefix(stdout, "lib/lib.go:13:4: Counter.n written in Counter.Inc") || strings.Contains(stderr, "not analysed") {
		t.Errorf("with the library alone: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestRacesCommand runs guardvet races on a real module: the race is
// reported once, with both sides and the handler each runs from, in text,
// -json and -sarif; the counter every handler locks for is not.
func TestRacesCommand(t *testing.T) {
	t.Parallel()
	dir := racesModule(t)
	stdout, stderr, code := run(t, dir, guardvet, "races", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	// One finding: its line, the access the message names, then the other
	// accesses it counts ("and 2 more": the write racing with itself in
	// another request, Resize's second read), each a related position.
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "main.go:15:") || !strings.Contains(lines[0], "(and 2 more accesses)") ||
		!strings.HasPrefix(lines[2], "\tmain.go:") || !strings.HasPrefix(lines[3], "\tmain.go:") ||
		!strings.Contains(lines[0], "Session.ptmx written in Session.Attach (handler /attach: main func literal 1 → Session.Attach) races with its read in Session.Resize (handler /resize: main func literal 2 → Session.Resize)") ||
		!strings.HasSuffix(lines[0], "(races)") || !strings.HasPrefix(lines[1], "\tmain.go:21:") {
		t.Errorf("text output:\n%s", stdout)
	}
	if strings.Contains(stdout, "Session.count") {
		t.Errorf("a field every handler locks for is reported:\n%s", stdout)
	}
	if !strings.Contains(stderr, "reached from 3 goroutine roots") {
		t.Errorf("stderr does not say what was analysed: %q", stderr)
	}

	stdout, _, code = run(t, dir, guardvet, "races", "-json", "./...")
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
		Related []struct {
			Posn string `json:"posn"`
		} `json:"related"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil || code != 1 {
		t.Fatalf("-json: exit %d, %v:\n%s", code, err, stdout)
	}
	diags := tree["example.com/term"]["races"]
	if len(diags) != 1 || len(diags[0].Related) != 3 || !strings.HasSuffix(diags[0].Related[0].Posn, "main.go:21:7") {
		t.Errorf("-json tree: %+v", tree)
	}

	stdout, _, code = run(t, dir, guardvet, "races", "-sarif", "./...")
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID           string
				RelatedLocations []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || code != 1 || len(log.Runs) != 1 {
		t.Fatalf("-sarif: exit %d, %v:\n%s", code, err, stdout)
	}
	r := log.Runs[0]
	if len(r.Results) != 1 || r.Results[0].RuleID != "races" || len(r.Results[0].RelatedLocations) != 3 ||
		len(r.Tool.Driver.Rules) != 1 || !strings.HasSuffix(r.Tool.Driver.Rules[0].HelpURI, "docs/rules/races.md") {
		t.Errorf("-sarif log: %+v", r)
	}
}

// TestRacesUsage: guardvet races without packages, with both formats,
// or on code that does not compile fails with a clear line; -help
// prints the usage.
func TestRacesUsage(t *testing.T) {
	t.Parallel()
	dir := racesModule(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"races"}, "guardvet races: no packages given"},
		{[]string{"races", "-json", "-sarif", "./..."}, "-json and -sarif are exclusive"},
		{[]string{"races", "./nosuch"}, "guardvet: stat nosuch: directory not found"},
	} {
		_, stderr, code := run(t, dir, guardvet, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	stdout, stderr, code := run(t, dir, guardvet, "races", "-help")
	if code != 0 || strings.Count(stdout, "usage: guardvet races") != 1 || !strings.Contains(stdout, "-tests") || stderr != "" {
		t.Errorf("races -help: exit %d, want the usage once on stdout and nothing on stderr\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, stderr, code = run(t, dir, guardvet, "races", "-bogus")
	if code != 2 || strings.Count(stderr, "usage: guardvet races") != 1 || !strings.Contains(stderr, "-bogus") {
		t.Errorf("races -bogus: exit %d, want 2 and the error and usage once on stderr\n%s", code, stderr)
	}
}

// TestRacesBrokenPackage: a package that does not type-check is left out
// with its error printed once, as the default run prints it; the race in
// the package that does is still reported, and the exit code is 2, in
// text and SARIF alike.
func TestRacesBrokenPackage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":     "module example.com/broken\n\ngo 1.26\n",
		"bad/bad.go": "package bad\n\nvar x int = \"s\"\n",
		"lib/lib.go": counterLib,
	}
	writeFiles(t, dir, files)
	const typeErr = "bad/bad.go:3:13: cannot use \"s\" (untyped string constant) as int value in variable declaration"
	stdout, stderr, code := run(t, dir, guardvet, "races", "./...")
	if code != 2 || !strings.HasPrefix(stdout, "lib/lib.go:13:4: Counter.n written in Counter.Inc") ||
		strings.Count(stderr, typeErr) != 1 || !strings.Contains(stderr, "not analysed: 1 package named") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, _, code = run(t, dir, guardvet, "races", "-sarif", "./...")
	var log struct {
		Runs []struct {
			Results     []json.RawMessage
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct{ Message struct{ Text string } }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || code != 2 || len(log.Runs) != 1 {
		t.Fatalf("-sarif: exit %d, %v:\n%s", code, err, stdout)
	}
	r := log.Runs[0]
	if len(r.Results) != 1 || len(r.Invocations) != 1 || r.Invocations[0].ExecutionSuccessful ||
		len(r.Invocations[0].ToolExecutionNotifications) != 1 || !strings.HasSuffix(typeErr, ": "+r.Invocations[0].ToolExecutionNotifications[0].Message.Text) {
		t.Errorf("-sarif log: %+v", r)
	}
	_, stderr, code = run(t, dir, guardvet, "races", "./bad")
	if code != 2 || strings.Count(stderr, typeErr) != 1 || strings.Contains(stderr, "guardvet races: bad") {
		t.Errorf("only the broken package: exit %d, stderr:\n%s", code, stderr)
	}
}
