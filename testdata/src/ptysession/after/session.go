// Package after is the fixed shape: the triple is guarded by ptmxMu and
// reachable only through three helpers, and closing takes a snapshot under
// the lock, then closes, kills and waits outside it. guardvet reports
// nothing here.
package after

import (
	"os"
	"os/exec"
	"sync"
)

type Session struct {
	ptmxMu sync.Mutex

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	ptmx *os.File

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachCmd *exec.Cmd

	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachCmdWaitOnce *sync.Once
}

func (s *Session) lockedPTMX() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx
}

func (s *Session) setPTYTriple(f *os.File, cmd *exec.Cmd) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx, s.attachCmd, s.attachCmdWaitOnce = f, cmd, &sync.Once{}
}

// clearPTYTriple takes the triple out under the lock; the caller closes it.
func (s *Session) clearPTYTriple() (*os.File, *exec.Cmd, *sync.Once) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	f, cmd, once := s.ptmx, s.attachCmd, s.attachCmdWaitOnce
	s.ptmx, s.attachCmd, s.attachCmdWaitOnce = nil, nil, nil
	return f, cmd, once
}

func (s *Session) GetPTY() *os.File { return s.lockedPTMX() }

func (s *Session) Attach(f *os.File, cmd *exec.Cmd) { s.setPTYTriple(f, cmd) }

// closePTYAndAttachCmd snapshots under the lock and does the blocking work
// outside it.
func (s *Session) closePTYAndAttachCmd() {
	f, cmd, once := s.clearPTYTriple()
	if f != nil {
		f.Close()
	}
	if cmd != nil && cmd.Process != nil {
		cmd.Process.Kill()
		once.Do(func() { cmd.Wait() })
	}
}

func (s *Session) Delete() { s.closePTYAndAttachCmd() }
