// Package sessiontwin is sessionref's buggy twin: one buggy shape of each
// of its seven patterns (sessionref/doc.go), annotated the same way.
// guardvet reports every racy site, with every rule on; sessionref, the
// fixed design, is clean.
package sessiontwin

import (
	"errors"
	"os"
	"os/exec"
	"sync"
)

var ErrExists = errors.New("session exists")

//guard:order detachMu ptmxMu
type Session struct {
	id string

	detachMu sync.Mutex
	ptmxMu   sync.Mutex //guard:noblock

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	ptmx *os.File

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachCmd *exec.Cmd

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachWaitOnce *sync.Once
}

// The helpers exist, as in sessionref...

func (s *Session) lockedPTMX() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx
}

func (s *Session) setPTYTriple(f *os.File, cmd *exec.Cmd) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx, s.attachCmd, s.attachWaitOnce = f, cmd, &sync.Once{}
}

func (s *Session) clearPTYTriple() (*os.File, *exec.Cmd, *sync.Once) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	f, cmd, once := s.ptmx, s.attachCmd, s.attachWaitOnce
	s.ptmx, s.attachCmd, s.attachWaitOnce = nil, nil, nil
	return f, cmd, once
}

// ...but the controller and the delete path bypass them (pattern 2).

// GetPTY is called by the controller goroutine.
func (s *Session) GetPTY() *os.File {
	return s.ptmx // want `s.ptmx may only be touched in lockedPTMX, setPTYTriple, clearPTYTriple`
}

// closePTYAndAttachCmd runs on the delete path: it closes and nils the
// triple in place, racing GetPTY, and holds the lock across Close, Kill and
// Wait when it does lock.
func (s *Session) closePTYAndAttachCmd() {
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	if s.ptmx != nil { // want `s.ptmx may only be touched`
		s.ptmx.Close() // want `s.ptmx may only be touched`
		s.ptmx = nil   // want `s.ptmx may only be touched`
	}
	s.ptmxMu.Lock()
	if s.attachCmd != nil { // want `s.attachCmd may only be touched`
		s.attachCmd.Process.Kill()                         // want `s.attachCmd may only be touched`
		s.attachWaitOnce.Do(func() { s.attachCmd.Wait() }) // want `s.attachWaitOnce may only be touched` `s.attachCmd may only be touched` `s.attachCmd.Wait can block while s.ptmxMu is held`
		s.attachCmd = nil                                  // want `s.attachCmd may only be touched`
	}
	s.ptmxMu.Unlock()
}

type Manager struct {
	mu       sync.Mutex
	sessions map[string]*Session //guard:by mu

	approvalMu    sync.Mutex
	approvalLocks map[string]*sync.Mutex //guard:by approvalMu
}

// Create checks for the id without the lock, then inserts under it: two
// callers can both pass the check (pattern 1).
func (m *Manager) Create(id string) (*Session, error) {
	if _, ok := m.sessions[id]; ok { // want `m.sessions read while m.mu is not known to be held`
		return nil, ErrExists
	}
	s := &Session{id: id}
	m.mu.Lock()
	m.sessions[id] = s
	m.mu.Unlock()
	return s, nil
}

// Get reads the map bare.
func (m *Manager) Get(id string) *Session {
	return m.sessions[id] // want `m.sessions read while m.mu is not known to be held`
}

// Delete removes the session, then drops its approval lock even if an
// approval holds it, without the approval map's lock (pattern 4).
func (m *Manager) Delete(id string) {
	m.mu.Lock()
	s := m.sessions[id]
	delete(m.sessions, id)
	m.mu.Unlock()
	if s != nil {
		s.closePTYAndAttachCmd()
	}
	delete(m.approvalLocks, id) // want `m.approvalLocks written while m.approvalMu is not known to be held`
}

// Approve serialises approvals per session through a lock kept in a map.
func (m *Manager) Approve(id string, run func()) {
	m.approvalMu.Lock()
	l := m.approvalLocks[id]
	if l == nil {
		l = &sync.Mutex{}
		m.approvalLocks[id] = l
	}
	m.approvalMu.Unlock()
	l.Lock()
	defer l.Unlock()
	run()
}

// AttachToExisting lazily attaches a PTY (pattern 7) without re-checking
// under the lock it installs with: two callers can both see nil and both
// install. The race detector cannot see it: every access is locked.
func (s *Session) AttachToExisting(start func() (*os.File, *exec.Cmd)) *os.File {
	if s.lockedPTMX() == nil {
		f, cmd := start()
		s.setPTYTriple(f, cmd) // want `check-then-act: s.ptmx was read at line 141 \(in s.lockedPTMX\) and the lock released`
	}
	return s.lockedPTMX()
}

// Pattern 3: lock order detachMu before ptmxMu. Reattach takes them the
// other way round.
func (s *Session) Reattach() {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.detachMu.Lock() // want `Session.detachMu acquired while Session.ptmxMu is held`
	defer s.detachMu.Unlock()
}

// Pattern 5: the output ring and its subscribers. write sends to each
// subscriber while holding the output lock: one stalled reader stalls the
// pump, and every other caller of the lock.
type output struct {
	mu   sync.Mutex    //guard:noblock
	ring []byte        //guard:by mu
	subs []chan []byte //guard:by mu
}

func (o *output) write(p []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ring = append(o.ring, p...)
	for _, ch := range o.subs {
		ch <- p // want `channel send can block while o.mu is held`
	}
}

// Pattern 6: status written by the wait goroutine and read by callers.
// Status reads it bare.
type Proc struct {
	stateMu sync.Mutex
	state   int //guard:by stateMu
}

func (p *Proc) exited(code int) {
	p.stateMu.Lock()
	p.state = code
	p.stateMu.Unlock()
}

func (p *Proc) Status() int {
	return p.state // want `p.state read while p.stateMu is not known to be held`
}
