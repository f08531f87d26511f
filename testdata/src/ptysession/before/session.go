// Package before is the pre-fix shape of a terminal session manager: the
// PTY triple is read by a controller (GetPTY) while the delete path closes
// it and stores nil. The race detector sees this only when a test happens to
// hit the interleaving; guardvet reports every racy site.
package before

import (
	"os"
	"os/exec"
	"sync"
)

type Session struct {
	ptmxMu            sync.Mutex
	ptmx              *os.File   //guard:by ptmxMu
	attachCmd         *exec.Cmd  //guard:by ptmxMu
	attachCmdWaitOnce *sync.Once //guard:by ptmxMu
}

// GetPTY is called by the controller goroutine.
func (s *Session) GetPTY() *os.File {
	return s.ptmx // want `s.ptmx read while s.ptmxMu is not known to be held`
}

// Attach installs a new PTY.
func (s *Session) Attach(f *os.File, cmd *exec.Cmd) {
	s.ptmx = f                         // want `s.ptmx written while s.ptmxMu is not known to be held`
	s.attachCmd = cmd                  // want `s.attachCmd written while s.ptmxMu is not known to be held`
	s.attachCmdWaitOnce = &sync.Once{} // want `s.attachCmdWaitOnce written while s.ptmxMu is not known to be held`
}

// closePTYAndAttachCmd runs on the delete path.
func (s *Session) closePTYAndAttachCmd() {
	if s.ptmx != nil { // want `s.ptmx read while s.ptmxMu is not known to be held`
		s.ptmx.Close() // want `s.ptmx read while s.ptmxMu is not known to be held`
		s.ptmx = nil   // want `s.ptmx written while s.ptmxMu is not known to be held`
	}
	if s.attachCmd != nil && s.attachCmd.Process != nil { // want `s.attachCmd read while` `s.attachCmd read while`
		s.attachCmd.Process.Kill()                            // want `s.attachCmd read while`
		s.attachCmdWaitOnce.Do(func() { s.attachCmd.Wait() }) // want `s.attachCmdWaitOnce read while` `s.attachCmd read while`
		s.attachCmd = nil                                     // want `s.attachCmd written while`
	}
}

// Delete is called by the API goroutine.
func (s *Session) Delete() {
	s.closePTYAndAttachCmd()
}
