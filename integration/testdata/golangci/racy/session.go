// Package racy is a terminal session whose PTY handle is read without the
// lock that guards it. guardvet's golangci-lint integration test expects the
// findings below at these exact lines; keep them in place.
package racy

import "sync"

// PTY stands in for the PTY master file.
type PTY struct{ fd int }

// Session is one terminal session.
type Session struct {
	mu sync.Mutex

	//guard:by mu
	pty *PTY

	title string //guard:bye mu
	rows  int
}

// Attach stores the PTY under the lock.
func (s *Session) Attach(p *PTY) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pty = p
}

// GetPTY reads the PTY without the lock: a data race with Attach.
func (s *Session) GetPTY() *PTY {
	return s.pty
}

// Resize needs no lock for rows.
func (s *Session) Resize(rows int) {
	s.rows = rows //guard:ignore rows is not guarded
}
