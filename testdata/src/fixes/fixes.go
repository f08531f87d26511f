// Package fixes covers guardedby's suggested fixes.
package fixes

import (
	"errors"
	"os"
	"sync"
)

type Session struct {
	ptmxMu sync.Mutex
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTMX
	ptmx *os.File
}

func (s *Session) lockedPTMX() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx
}

func (s *Session) setPTMX(f *os.File) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx = f
}

// GetPTY reads the field directly with nothing held: the fix calls the
// getter.
func (s *Session) GetPTY() *os.File {
	return s.ptmx // want `s.ptmx may only be touched in lockedPTMX, setPTMX`
}

// PTYLocked reads it with ptmxMu held. The getter locks ptmxMu, so calling
// it here would deadlock: reported, no fix.
func (s *Session) PTYLocked() *os.File {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx // want `s.ptmx may only be touched in lockedPTMX, setPTMX`
}

// Writes have no getter to call: reported, no fix.
func (s *Session) Reset() {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx = nil // want `s.ptmx may only be touched in lockedPTMX, setPTMX`
}

type Conn struct {
	mu     sync.Mutex
	closed bool   //guard:by mu
	buf    []byte //guard:by mu
}

var errClosed = errors.New("closed")

// Send forgets to unlock on the error path: the fix unlocks before return.
func (c *Conn) Send(b []byte) error {
	c.mu.Lock()
	if c.closed {
		return errClosed // want `return with c.mu still locked, but later paths unlock it`
	}
	c.buf = append(c.buf, b...)
	c.mu.Unlock()
	return nil
}

// Len forgets to unlock on the early path, and its result reads a guarded
// field: unlocking before the return would read it unlocked, so no fix is
// offered.
func (c *Conn) Len() int {
	c.mu.Lock()
	if c.closed {
		return len(c.buf) // want `return with c.mu still locked, but later paths unlock it`
	}
	c.mu.Unlock()
	return 0
}
