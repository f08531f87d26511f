package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// loadGroup is one packages.Load: the patterns to load from dir ("" for
// the working directory).
type loadGroup struct {
	dir      string
	patterns []string
}

// groupPatterns turns the arguments into loads. A Go file stands for its
// package (go/packages' file= query), so a pre-commit hook can pass the
// staged files: guardvet a/x.go b/y.go checks a's and b's packages. A file
// whose nearest go.mod is not the working directory's module is loaded
// from that module's directory, one load per module, because go list
// loads from one main module at a time: a repository with two modules
// gets two loads. Package patterns load from the working directory. The
// working directory's load comes first, then the other modules by path.
func groupPatterns(patterns []string) []loadGroup {
	wd, _ := os.Getwd() // without it, every file counts as of another module: loaded from its own directory, which still works
	home := moduleDir(wd)
	byDir := map[string]*loadGroup{"": {}}
	for _, p := range patterns {
		dir := ""
		if strings.HasSuffix(p, ".go") {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				if abs, err := filepath.Abs(p); err == nil {
					p = "file=" + abs
					if mod := moduleDir(filepath.Dir(abs)); mod != "" && mod != home {
						dir = mod
					}
				}
			}
		}
		g := byDir[dir]
		if g == nil {
			g = &loadGroup{dir: dir}
			byDir[dir] = g
		}
		g.patterns = append(g.patterns, p)
	}
	var out []loadGroup
	for _, g := range byDir {
		if len(g.patterns) > 0 {
			out = append(out, *g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}

// moduleDir returns the directory of the nearest go.mod at or above dir,
// or "" if there is none.
func moduleDir(dir string) string {
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// errorLog is where a run's errors go: each line is printed to w
// (stderr) as it comes and kept, so that the outputs can carry them too
// (-json puts a package's load and type errors in its entry, -sarif in its
// invocation's notifications). Trace and progress lines go to w alone.
type errorLog struct {
	w     io.Writer
	lines []string
}

func (l *errorLog) printf(format string, args ...any) {
	line := strings.TrimSuffix(fmt.Sprintf(format, args...), "\n")
	l.lines = append(l.lines, line)
	fmt.Fprintln(l.w, line)
}

// printErrors prints the load and type errors of pkgs and their
// dependencies, each once, as packages.PrintErrors does, but with
// positions relative to the working directory, as findings have them, and
// "guardvet: " instead of go/packages' "-: " before errors that have no
// position. It returns the number of errors.
func printErrors(log *errorLog, pkgs []*packages.Package) int {
	lines := errorLines(pkgs)
	for _, line := range lines {
		log.printf("%s", line)
	}
	return len(lines)
}

// errorLines are the load and type errors of pkgs and their dependencies,
// each once (a package and its test variant share files), in dependency
// order.
func errorLines(pkgs []*packages.Package) []string {
	var out []string
	seen := map[string]bool{}
	modules := map[*packages.Module]bool{}
	add := func(line string) {
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	for p := range packages.Postorder(pkgs) {
		for _, e := range p.Errors {
			if e.Pos == "" || e.Pos == "-" {
				add("guardvet: " + relMessage(e.Msg))
			} else {
				add(relPos(e.Pos) + ": " + relMessage(e.Msg))
			}
		}
		if m := p.Module; m != nil && m.Error != nil && !modules[m] {
			modules[m] = true
			add("guardvet: " + relMessage(m.Error.Err))
		}
	}
	return out
}

var lineCol = regexp.MustCompile(`(:\d+){1,2}$`)

// relPos makes the file of a go/packages position ("file:line:col",
// "file:line" or "file") relative to the working directory.
func relPos(pos string) string {
	suffix := lineCol.FindString(pos)
	return output.RelPath(strings.TrimSuffix(pos, suffix)) + suffix
}

// loadFailure is what guardvet says when go/packages cannot run go list
// at all: the go command's own message, without go/packages' wrapping
// ("err: exit status 1: stderr: ..."), one line each, and what to do
// where the cause is a common one.
func loadFailure(err error) []string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "err: "); ok {
		cause, stderr, found := strings.Cut(rest, ": stderr: ")
		msg = strings.TrimSpace(stderr)
		if !found || msg == "" {
			msg = cause
		}
	}
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(out) == 0 {
			line = "guardvet: " + line // the go command indents its further lines itself
		}
		out = append(out, relMessage(line))
	}
	switch {
	case strings.Contains(msg, "go.mod file not found"), strings.Contains(msg, "cannot find main module"):
		out = append(out, "guardvet: packages are loaded as go build loads them: run guardvet in a module (a directory with go.mod, or below one), or name its directory with -C DIR")
	case strings.Contains(msg, "go command required"):
		out = append(out, "guardvet: guardvet runs the go command to load packages: install Go and put go on PATH")
	}
	return out
}

// relMessage shortens absolute paths below the working directory in an
// error message (go list's "stat /abs/dir: directory not found").
func relMessage(msg string) string {
	wd, err := os.Getwd()
	if err != nil || wd == string(filepath.Separator) {
		return msg
	}
	return strings.ReplaceAll(msg, wd+string(filepath.Separator), "")
}

// hasErrors reports whether p or a package it imports failed to load or
// type-check.
func hasErrors(p *packages.Package) bool {
	failed := false
	packages.Visit([]*packages.Package{p}, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || len(p.TypeErrors) > 0 {
			failed = true
		}
	})
	return failed
}
