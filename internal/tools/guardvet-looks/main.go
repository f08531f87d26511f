// Command guardvet-looks re-runs the modules of the first looks
// (testdata/corpus/firstlook.txt) with two builds of guardvet and says
// what the second reports that the first did not, and what it no longer
// reports, with the verdict each lost position had at its first look. It
// is how a change to `guardvet races` is checked against code outside
// the gate: a true or benign finding lost fails it. `make looks` runs it;
// it fetches each module through the Go module proxy, so it is not part
// of `make test`.
//
// Usage:
//
//	guardvet-looks -base BIN -new BIN [-firstlook FILE] [-sets REGEXP] [-work DIR] [-all]
//
// A look's rows name their module and version in their positions
// (module@version/file:line:col). Each module version is run as a user
// names it (MODULE/...), or, for a set whose name ends in lib-races-*,
// its library packages alone (no main, internal, example, cmd, test or
// tools package). Without -all only the module versions where a look
// found something true or benign are run.
//
// Exit codes: 0 when no true or benign position is lost; 1 when one is;
// 2 on bad usage or when the file cannot be read.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/mod/module"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// target is one run: a module version, named whole or as its library.
type target struct {
	mod, version string
	lib          bool
}

func (t target) String() string {
	s := t.mod + "@" + t.version
	if t.lib {
		s += " (library)"
	}
	return s
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardvet-looks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", "", "the guardvet build to compare against (required)")
	next := fs.String("new", "", "the guardvet build under test (required)")
	file := fs.String("firstlook", "testdata/corpus/firstlook.txt", "the first looks' triaged findings")
	sets := fs.String("sets", "", "only the sets whose names match this regular expression")
	work := fs.String("work", filepath.Join(os.TempDir(), "guardvet-looks"), "where each module version gets a scratch module (kept between runs)")
	all := fs.Bool("all", false, "run every module version a look ran, not only those with a true or benign finding")
	if err := fs.Parse(args); err != nil || *base == "" || *next == "" || fs.NArg() > 0 {
		if err == nil {
			fmt.Fprintln(stderr, "guardvet-looks: -base and -new are required")
		}
		return 2
	}
	filter, err := regexp.Compile(*sets)
	if err != nil {
		fmt.Fprintf(stderr, "guardvet-looks: -sets: %v\n", err)
		return 2
	}
	verdicts, targets, err := readLooks(*file, filter, *all)
	if err != nil {
		fmt.Fprintf(stderr, "guardvet-looks: %v\n", err)
		return 2
	}
	binBase, err1 := filepath.Abs(*base)
	binNew, err2 := filepath.Abs(*next)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(stderr, "guardvet-looks: cannot resolve the builds' paths")
		return 2
	}
	lostGood := 0
	for _, t := range targets {
		lostGood += compare(t, binBase, binNew, *work, verdicts, stdout)
	}
	fmt.Fprintf(stdout, "guardvet-looks: %d module versions, %d true or benign positions lost\n", len(targets), lostGood)
	if lostGood > 0 {
		return 1
	}
	return 0
}

// readLooks reads the races rows of the first looks: each position's
// verdicts, and the module versions to run, sorted.
func readLooks(path string, filter *regexp.Regexp, all bool) (map[string]string, []target, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	verdicts := map[string]string{}
	seen := map[target]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || strings.HasPrefix(cols[0], "#") || cols[2] != "races" || !filter.MatchString(cols[0]) {
			continue
		}
		set, pos, verdict := cols[0], cols[1], cols[3]
		verdicts[pos] = mergeVerdict(verdicts[pos], verdict)
		t, ok := targetOf(set, pos)
		if !ok {
			continue
		}
		if good := verdict == "true" || verdict == "benign"; good || all {
			seen[t] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	var targets []target
	for t := range seen {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].String() < targets[j].String() })
	return verdicts, targets, nil
}

// mergeVerdict keeps the strongest verdict a position had in any look:
// true, then benign, then false.
func mergeVerdict(old, v string) string {
	rank := map[string]int{"true": 3, "benign": 2, "false": 1}
	if rank[v] > rank[old] {
		return v
	}
	return old
}

// targetOf is the module version a row's position is in, and whether its
// set ran the library alone.
func targetOf(set, pos string) (target, bool) {
	at := strings.Index(pos, "@")
	if at < 0 {
		return target{}, false
	}
	rest := pos[at+1:]
	slash := strings.Index(rest, "/")
	if slash < 0 {
		return target{}, false
	}
	mod, err := module.UnescapePath(pos[:at])
	if err != nil {
		return target{}, false
	}
	return target{mod: mod, version: rest[:slash], lib: strings.Contains(set, "lib-races")}, true
}

// compare runs t with both builds and prints what changed; it returns
// how many lost positions were true or benign at their first look.
func compare(t target, base, next, work string, verdicts map[string]string, w io.Writer) int {
	dir, err := prepare(t, work)
	if err != nil {
		fmt.Fprintf(w, "%s: not run: %v\n", t, err)
		return 0
	}
	pkgs := []string{t.mod + "/..."}
	if t.lib {
		if pkgs, err = libraryPackages(dir, t.mod); err != nil || len(pkgs) == 0 {
			fmt.Fprintf(w, "%s: not run: no library packages (%v)\n", t, err)
			return 0
		}
	}
	before, errA := findings(base, dir, pkgs)
	after, errB := findings(next, dir, pkgs)
	if errA != nil || errB != nil {
		fmt.Fprintf(w, "%s: not run: %v %v\n", t, errA, errB)
		return 0
	}
	lost, added := minus(before, after), minus(after, before)
	fmt.Fprintf(w, "%s: %d -> %d\n", t, len(before), len(after))
	bad := 0
	for _, p := range lost {
		v := verdicts[p]
		if v == "true" || v == "benign" {
			bad++
		}
		if v == "" {
			v = "untriaged"
		}
		fmt.Fprintf(w, "\tlost %s (%s at its first look)\n", p, v)
	}
	for _, p := range added {
		fmt.Fprintf(w, "\tnew  %s\n", p)
	}
	return bad
}

// prepare makes (or reuses) a scratch module that requires t's module
// version and its tests' dependencies.
func prepare(t target, work string) (string, error) {
	dir := filepath.Join(work, strings.NewReplacer("/", "_", "@", "_").Replace(t.mod+"@"+t.version))
	if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module scratch\n\ngo 1.26\n"), 0o644); err != nil {
		return "", err
	}
	// Every package's dependencies at once where they all resolve;
	// otherwise the module's, then each package's that resolve, as the
	// go command's hints for a package that does not load say to.
	if goGet(dir, t.mod+"/...@"+t.version) == nil {
		return dir, os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
	}
	if err := goGet(dir, t.mod+"@"+t.version); err != nil {
		return "", err
	}
	list := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", t.mod+"/...")
	list.Dir, list.Env = dir, append(os.Environ(), "GOWORK=off")
	out, _ := list.Output()
	for _, pkg := range strings.Fields(string(out)) {
		_ = goGet(dir, pkg+"@"+t.version) // a package whose dependencies do not resolve stays out of the run
	}
	return dir, os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
}

// goGet runs go get -t pattern in the scratch module dir.
func goGet(dir, pattern string) error {
	get := exec.Command("go", "get", "-t", pattern)
	get.Dir, get.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := get.CombinedOutput(); err != nil {
		return fmt.Errorf("go get %s: %v: %s", pattern, err, lastLine(out))
	}
	return nil
}

// libraryPackages is mod's packages that are not main, internal,
// examples, commands, tests or tools.
func libraryPackages(dir, mod string) ([]string, error) {
	list := exec.Command("go", "list", "-e", "-f", `{{if and (ne .Name "main") (ne .Name "")}}{{.ImportPath}}{{end}}`, mod+"/...")
	list.Dir, list.Env = dir, append(os.Environ(), "GOWORK=off")
	out, err := list.Output()
	if err != nil {
		return nil, err
	}
	skip := regexp.MustCompile(`/(internal|examples?|cmd|tests?|testdata|tools?)(/|$)`)
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if !skip.MatchString(strings.TrimPrefix(p, mod)) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// findings runs bin's races mode on pkgs in dir and returns the first
// position of each finding, relative to the module cache.
func findings(bin, dir string, pkgs []string) ([]string, error) {
	cmd := exec.Command(bin, append([]string{"races"}, pkgs...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); err != nil && (!ok || exit.ExitCode() > 2) {
		return nil, err
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSpace(string(cache)) + string(filepath.Separator)
	var pos []string
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		if i := strings.Index(line, ": "); i > 0 {
			pos = append(pos, strings.TrimPrefix(line[:i], prefix))
		}
	}
	sort.Strings(pos)
	return pos, nil
}

// minus is what a has that b does not; both sorted.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

// lastLine is the last line of a command's output, where the go command
// says what failed.
func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
