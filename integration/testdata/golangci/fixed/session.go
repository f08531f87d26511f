// Package fixed is the racy session with the lock taken: guardvet reports
// nothing here.
package fixed

import "sync"

// PTY stands in for the PTY master file.
type PTY struct{ fd int }

// Session is one terminal session.
type Session struct {
	mu sync.Mutex

	//guard:by mu
	pty *PTY

	title string //guard:by mu
	rows  int
}

// Attach stores the PTY under the lock.
func (s *Session) Attach(p *PTY) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pty = p
}

// GetPTY reads the PTY under the lock.
func (s *Session) GetPTY() *PTY {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pty
}

// Resize needs no lock for rows.
func (s *Session) Resize(rows int) {
	s.rows = rows
}
