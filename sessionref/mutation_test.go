//go:build mutation

package sessionref_test

import (
	"fmt"
	"go/ast"
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
	// at names the function the finding is expected in, when it is not
	// the edited one: a check-then-act is reported at the caller whose
	// write depends on the stale read.
	at string
	// gap, when set, says why no rule can catch the mutation yet. The
	// mutation must still apply and compile, and guardvet must stay silent
	// on it: a gap that starts being caught fails the test, so that it is
	// promoted to an expectation.
	gap string
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
	s.ptmx, s.attachTTY, s.attachScreen = t.ptmx, t.tty, t.screen`,
		new:  `	s.ptmx, s.attachTTY, s.attachScreen = t.ptmx, t.tty, t.screen`,
		rule: "checkthenact",
		at:   "Attach",
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
		at:   "Attach",
		want: `check-then-act: s.ptmx was read at line \d+ \(in s.lockedPTMX\) and the lock released`,
	},
	// ---- guarded state touched without its lock ----
	{
		name: "Get/session map unlocked",
		file: "manager.go",
		old: `func (m *Manager) get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {`,
		new: `func (m *Manager) get(id string) (*Session, error) {
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
		old:  `	s.ptmx, s.attachTTY, s.attachScreen = nil, nil, nil`,
		new: `	s.ptmx.Close()
	s.ptmx, s.attachTTY, s.attachScreen = nil, nil, nil`,
		rule: "noblock",
		want: `s.ptmx.Close can block while s.ptmxMu is held`,
	},
	{
		name: "clearPTYTriple/waits under ptmxMu",
		file: "pty.go",
		old:  `	t := ptyTriple{ptmx: s.ptmx, tty: s.attachTTY, screen: s.attachScreen}`,
		new: `	t := ptyTriple{ptmx: s.ptmx, tty: s.attachTTY, screen: s.attachScreen}
	s.attachScreen.stop()
	s.attachScreen.wait()`,
		rule: "noblock",
		want: `channel receive \(through s.attachScreen.wait\) can block while s.ptmxMu is held`,
	},
	// ---- pattern 5: never block on a subscriber ----
	{
		name: "offer/blocking send under the subscription lock",
		file: "output.go",
		old: `	select {
	case sub.ch <- chunk:
		return true, false
	default:
		sub.closed = true
		sub.err = ErrSlowSubscriber
		close(sub.ch)
		return false, true
	}`,
		new: `	sub.ch <- chunk
	return true, false`,
		rule: "noblock",
		want: `channel send can block while sub.mu is held`,
	},
	{
		name: "appendAndListSubs/sends under the output lock",
		file: "output.go",
		old: `	for sub := range o.subs {
		subs = append(subs, sub)
	}
	return subs`,
		new: `	for sub := range o.subs {
		sub.ch <- chunk
		subs = append(subs, sub)
	}
	return subs`,
		rule: "noblock",
		want: `channel send can block while o.mu is held`,
	},
	{
		name: "write/iterates the subscribers unlocked",
		file: "output.go",
		old: `	subs := o.appendAndListSubs(chunk)
	for _, sub := range subs {`,
		new: `	o.appendAndListSubs(chunk)
	for sub := range o.subs {`,
		rule: "guardedby",
		want: `o.subs read while o.mu is not held`,
	},
	// ---- pattern 3: lock order detachMu before ptmxMu ----
	{
		name: "setPTYTriple/takes detachMu under ptmxMu",
		file: "pty.go",
		old: `func (s *Session) setPTYTriple(t ptyTriple) (cur *os.File, installed bool) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()`,
		new: `func (s *Session) setPTYTriple(t ptyTriple) (cur *os.File, installed bool) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.detachMu.Lock()
	defer s.detachMu.Unlock()`,
		rule: "lockorder",
		want: `Session.detachMu acquired while Session.ptmxMu is held`,
	},
	{
		name: "setPTYTriple/detaches under ptmxMu, through a call",
		file: "pty.go",
		old: `	if s.attachClosed {
		return nil, false
	}`,
		new: `	if s.attachClosed {
		_ = s.Detach()
		return nil, false
	}`,
		rule: "lockorder",
		want: `s.Detach`,
	},
	{
		name: "Detach/without detachMu",
		file: "pty.go",
		old: `	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	t := s.clearPTYTriple(nil, false)`,
		new:  `	t := s.clearPTYTriple(nil, false)`,
		rule: "guardedby",
		want: `s.clearPTYTriple needs s.detachMu`,
	},
	// ---- pattern 6: status under stateMu ----
	{
		name: "Pid/reads the child unlocked",
		file: "session.go",
		old: `func (s *Session) Pid() int {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()`,
		new:  `func (s *Session) Pid() int {`,
		rule: "guardedby",
		want: `s.child read while s.stateMu is not known to be held`,
	},
	{
		name: "markClosed/checks then closes in two sections",
		file: "session.go",
		old: `func (s *Session) markClosed() {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.state = StatusClosed`,
		new: `func (s *Session) markClosed() {
	if s.lockedState() == StatusClosed {
		return
	}
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.state = StatusClosed`,
		rule: "checkthenact",
		want: `check-then-act: s.state was read at line \d+ \(in s.lockedState\)`,
	},
	// ---- pattern 1: the session map ----
	{
		name: "take/without the manager lock",
		file: "manager.go",
		old: `func (m *Manager) take(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()`,
		new:  `func (m *Manager) take(id string) (*Session, error) {`,
		rule: "guardedby",
		want: `m.closed read while m.mu is not known to be held`,
	},
	// ---- pattern 5: the scrollback ring leaves its lock ----
	{
		name: "snapshot/returns the ring's buffer itself",
		file: "output.go",
		old:  `	return o.ring.snapshot()`,
		new:  `	return o.ring.buf`,
		rule: "escape",
		want: `o.ring.buf`,
	},
	// ---- pattern 4: per-id approval locks ----
	{
		name: "ref/without the table lock",
		file: "approval.go",
		old: `func (t *approvalTable) ref(id string) *sync.Mutex {
	t.mu.Lock()
	defer t.mu.Unlock()`,
		new:  `func (t *approvalTable) ref(id string) *sync.Mutex {`,
		rule: "guardedby",
		want: `t.locks read while t.mu is not known to be held`,
	},
	{
		// release drops the table entry, without the reference count,
		// before it unlocks: the next Approve for id creates a fresh lock
		// and types its command while this one still holds the old lock.
		name: "acquire/release deletes the entry while it is held",
		file: "approval.go",
		old: `	return func() {
		l.Unlock()
		t.unref(id)
	}`,
		new: `	return func() {
		t.mu.Lock()
		delete(t.refs, id)
		delete(t.locks, id)
		t.mu.Unlock()
		l.Unlock()
	}`,
		rule: "guardedby",
		want: `delete\(t.locks, id\) removes the entry while l, the lock taken from t.locks\[id\], is still held`,
	},
	{
		name: "unref/deletes an entry another approval holds",
		file: "approval.go",
		old:  `	if t.refs[id] == 0 {`,
		new:  `	if t.refs[id] >= 0 {`,
		rule: "guardedby",
		want: `delete\(t.locks, id\) is not made under a check that t.refs\[id\] is zero`,
	},
}

// TestMutationsAreCaught applies each mutation to sessionref in memory (a
// go/packages overlay: the files on disk are not touched), checks the
// package with every rule, and requires the mutation's finding, from the
// expected rule, inside the function the edit is in. An unmutated run is
// TestGuardvetClean: sessionref itself has none. It prints the score;
// known gaps count against it.
func TestMutationsAreCaught(t *testing.T) {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	caught := 0
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
			at := strings.Index(string(src), m.old)
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
			from, to := editedFunc(pkgs[0], path, at, m.at)
			graph, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := regexp.MustCompile(m.want)
			var got []string
			found := false
			for _, act := range graph.Roots {
				for _, d := range act.Diagnostics {
					p := act.Package.Fset.Position(d.Pos)
					line := fmt.Sprintf("%s:%d: %s: %s", filepath.Base(p.Filename), p.Line, act.Analyzer.Name, d.Message)
					got = append(got, line)
					if m.gap == "" && act.Analyzer.Name == m.rule && want.MatchString(d.Message) && p.Filename == path && from <= p.Offset && p.Offset < to {
						found = true
					}
				}
			}
			switch {
			case m.gap != "" && len(got) > 0:
				t.Errorf("known gap now caught: give the mutation its rule and message; guardvet reported:\n%s", strings.Join(got, "\n"))
			case m.gap != "":
				t.Logf("known gap: %s", m.gap)
			case !found:
				t.Errorf("not caught: no %s finding matching %q in the edited function; guardvet reported:\n%s", m.rule, m.want, strings.Join(got, "\n"))
			default:
				caught++
			}
		})
	}
	fmt.Printf("sessionref mutation score: %d of %d regressions caught\n", caught, len(mutations))
}

// editedFunc returns the byte range of the function declaration in file
// named name or, when name is empty, containing offset; the whole file
// when there is none.
func editedFunc(pkg *packages.Package, file string, offset int, name string) (from, to int) {
	for _, f := range pkg.Syntax {
		tf := pkg.Fset.File(f.Pos())
		if tf == nil || tf.Name() != file {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start, end := tf.Offset(fd.Pos()), tf.Offset(fd.End())
			if (name == "" && start <= offset && offset < end) || fd.Name.Name == name {
				return start, end
			}
		}
		return 0, tf.Size()
	}
	return 0, 1 << 30
}
