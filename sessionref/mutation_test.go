package sessionref_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/suite"
)

// A mutation is a realistic regression of sessionref: a change a
// maintainer could make that reintroduces one of the bugs the package is
// built to avoid. guardvet must report each one, with the rule and
// message given.
type mutation struct {
	name string
	file string // in sessionref/
	old  string // must occur exactly once
	new  string
	rule string
	want string // regexp on the message
}

var mutations = []mutation{
	// ---- check-then-act: the split check-then-insert in Create ----
	{
		name: "create/guard-clause split",
		file: "manager.go",
		old: `	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	id := spec.ID
	if id != "" {
		if _, taken := m.sessions[id]; taken {
			return nil, fmt.Errorf("%w: %q", ErrExists, id)
		}
	}
`,
		new: `	id := spec.ID
	m.mu.Lock()
	_, taken := m.sessions[id]
	m.mu.Unlock()
	if id != "" && taken {
		return nil, fmt.Errorf("%w: %q", ErrExists, id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
`,
		rule: "checkthenact",
		want: `check-then-act: m.sessions\[id\] was read at line \d+ and the lock released`,
	},
	{
		name: "create/branch split",
		file: "manager.go",
		old: `	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	id := spec.ID
	if id != "" {
		if _, taken := m.sessions[id]; taken {
			return nil, fmt.Errorf("%w: %q", ErrExists, id)
		}
	}
	m.seq++
	if id == "" {
		for {
			id = "s" + strconv.FormatUint(m.seq, 10)
			if _, taken := m.sessions[id]; !taken {
				break
			}
			m.seq++ // a caller chose this name explicitly; try the next one
		}
	}
	s := newSession(id, m.seq, spec, ws, m.opts)
	m.sessions[id] = s
	return s, nil
`,
		new: `	id := spec.ID
	m.mu.Lock()
	_, taken := m.sessions[id]
	m.mu.Unlock()
	if !taken || id == "" {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.closed {
			return nil, ErrClosed
		}
		m.seq++
		if id == "" {
			id = "s" + strconv.FormatUint(m.seq, 10)
		}
		s := newSession(id, m.seq, spec, ws, m.opts)
		m.sessions[id] = s
		return s, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrExists, id)
`,
		rule: "checkthenact",
		want: `check-then-act: m.sessions\[id\] was read at line \d+ and the lock released`,
	},
	// ---- check-then-act: the dropped re-check in setPTYTriple ----
	{
		name: "setPTYTriple/no ptmx re-check",
		file: "pty.go",
		old: `	if s.ptmx != nil {
		return s.ptmx, false
	}
	s.ptmx, s.attachCmd, s.attachWaitOnce = t.ptmx, t.cmd, t.wait`,
		new:  `	s.ptmx, s.attachCmd, s.attachWaitOnce = t.ptmx, t.cmd, t.wait`,
		rule: "checkthenact",
		want: `check-then-act: s.ptmx was read at line \d+ \(in s.lockedPTMX\) and the lock released`,
	},
	{
		name: "setPTYTriple/re-checks another field",
		file: "pty.go",
		old: `	if s.attachClosed {
		return nil, false
	}
	if s.ptmx != nil {
		return s.ptmx, false
	}`,
		new: `	if s.attachClosed || s.detached {
		return nil, false
	}`,
		rule: "checkthenact",
		want: `check-then-act: s.ptmx was read at line \d+ \(in s.lockedPTMX\) and the lock released`,
	},
	// ---- guarded state touched without its lock ----
	{
		name: "Get/session map unlocked",
		file: "manager.go",
		old: `func (m *Manager) Get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {`,
		new: `func (m *Manager) Get(id string) (*Session, error) {
	if m.closed {`,
		rule: "guardedby",
		want: `m.closed read while m.mu is not known to be held`,
	},
	{
		name: "Attach/bypasses the PTY helpers",
		file: "pty.go",
		old:  `	if f, _ := s.lockedPTMX(); f != nil {`,
		new:  `	if f := s.ptmx; f != nil {`,
		rule: "guardedby",
		want: `s.ptmx may only be touched in lockedPTMX, setPTYTriple, clearPTYTriple`,
	},
	{
		name: "output/snapshot unlocked",
		file: "output.go",
		old: `func (o *output) snapshot() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ring.snapshot()`,
		new: `func (o *output) snapshot() []byte {
	return o.ring.snapshot()`,
		rule: "guardedby",
		want: `o.ring read while o.mu is not known to be held`,
	},
	// ---- blocking and teardown under the pointer lock ----
	{
		name: "clearPTYTriple/closes under ptmxMu",
		file: "pty.go",
		old:  `	s.ptmx, s.attachCmd, s.attachWaitOnce = nil, nil, nil`,
		new: `	s.ptmx.Close()
	s.ptmx, s.attachCmd, s.attachWaitOnce = nil, nil, nil`,
		rule: "noblock",
		want: `s.ptmx.Close can block while s.ptmxMu is held`,
	},
}

// TestMutationsAreCaught applies each mutation to sessionref in memory (a
// go/packages overlay: the files on disk are not touched), checks the
// package with every rule, and requires the mutation's finding. An
// unmutated run is TestGuardvetClean: sessionref itself has none.
func TestMutationsAreCaught(t *testing.T) {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			path := filepath.Join(dir, m.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(src), m.old); n != 1 {
				t.Fatalf("the text to mutate occurs %d times in %s, want once: update the mutation", n, m.file)
			}
			mutated := strings.Replace(string(src), m.old, m.new, 1)
			pkgs, err := packages.Load(&packages.Config{
				Mode:    packages.LoadAllSyntax,
				Overlay: map[string][]byte{path: []byte(mutated)},
			}, "github.com/guardvet/guardvet/sessionref")
			if err != nil {
				t.Fatal(err)
			}
			if packages.PrintErrors(pkgs) > 0 {
				t.Fatal("the mutated package does not type-check: update the mutation")
			}
			graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := regexp.MustCompile(m.want)
			var got []string
			for _, act := range graph.Roots {
				for _, d := range act.Diagnostics {
					line := act.Analyzer.Name + ": " + d.Message
					if act.Analyzer.Name == m.rule && want.MatchString(d.Message) {
						if p := act.Package.Fset.Position(d.Pos); filepath.Base(p.Filename) != m.file {
							t.Errorf("reported in %s, not in the mutated %s: %s", p.Filename, m.file, line)
						}
						return
					}
					got = append(got, line)
				}
			}
			t.Errorf("not caught: no %s finding matching %q; guardvet reported:\n%s", m.rule, m.want, strings.Join(got, "\n"))
		})
	}
}
