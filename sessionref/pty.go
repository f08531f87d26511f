package sessionref

import (
	"fmt"
	"io"
	"os"

	"github.com/creack/pty"
)

// ptyTriple is a snapshot of the session's attachment fields: the
// user-facing terminal, its slave side, and the screen relay.
type ptyTriple struct {
	ptmx   *os.File // the master, the caller's side
	tty    *os.File // the slave, the relay's side
	screen *screen
}

// screen is the output half of the attach relay: a goroutine copying a
// subscription of the session's output, scrollback first, to the slave
// side of the terminal, where the caller reads it from the master. The
// keyboard half, the slave copied into the session, is serveAttachment.
type screen struct {
	sub  *Subscription
	done chan struct{} // closed when the copy has returned
}

// startScreen starts copying sub to tty. The copy ends when sub ends (it is
// stopped, or fell behind) or tty fails (it was closed, or the terminal hung
// up).
func startScreen(tty *os.File, sub *Subscription) *screen {
	sc := &screen{sub: sub, done: make(chan struct{})}
	go func() {
		defer close(sc.done)
		_, _ = io.Copy(tty, sub)
	}()
	return sc
}

// stop ends the screen's input, so the copy returns once it has written
// what it holds (or at once, if the terminal is closed).
func (sc *screen) stop() { _ = sc.sub.Close() }

// wait blocks until the copy has returned.
func (sc *screen) wait() { <-sc.done }

// lockedPTMX returns the attached terminal (nil if none) and whether the
// session is detached, read under ptmxMu. The caller does any I/O on the
// returned file after the lock is released.
func (s *Session) lockedPTMX() (ptmx *os.File, detached bool) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	return s.ptmx, s.detached
}

// setPTYTriple installs t as the session's attachment. Pattern 7: Attach
// builds t without holding any lock, so this re-checks, under the lock it
// installs with, that no other Attach won meanwhile and that the session
// still takes attachments. It returns the installed terminal (t's or the
// winner's) and whether t was installed.
func (s *Session) setPTYTriple(t ptyTriple) (cur *os.File, installed bool) {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	if s.attachClosed {
		return nil, false
	}
	if s.ptmx != nil {
		return s.ptmx, false
	}
	s.ptmx, s.attachTTY, s.attachScreen = t.ptmx, t.tty, t.screen
	s.detached = false
	s.attachers.Add(1) // for the serveAttachment goroutine Attach starts next
	return t.ptmx, true
}

// clearPTYTriple removes the attachment and returns it, so the caller can
// tear it down outside ptmxMu. If owner is non-nil, it only clears the
// attachment whose screen is owner (serveAttachment must not clear a newer
// one). If final is set, no attachment may be installed afterwards. Callers
// hold detachMu, so a cleared triple is always torn down before the next
// clear.
//
//guard:holds s.detachMu
func (s *Session) clearPTYTriple(owner *screen, final bool) ptyTriple {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	if final {
		s.attachClosed = true
	}
	if s.attachScreen == nil || (owner != nil && s.attachScreen != owner) {
		return ptyTriple{}
	}
	t := ptyTriple{ptmx: s.ptmx, tty: s.attachTTY, screen: s.attachScreen}
	s.ptmx, s.attachTTY, s.attachScreen = nil, nil, nil
	s.detached = true
	return t
}

// teardown releases a snapshot taken by clearPTYTriple, or one that was
// never installed. It runs with ptmxMu released: it closes and waits. Both
// sides of the terminal are non-blocking (pollable), so the closes
// interrupt any Read or Write in progress on them, and the wait is short.
func (t ptyTriple) teardown() {
	if t.screen == nil {
		return
	}
	_ = t.ptmx.Close() // hangs up the terminal: the caller's Read ends
	_ = t.tty.Close()  // serveAttachment's keyboard copy and a blocked screen write end
	t.screen.stop()
	t.screen.wait()
}

// Attach returns the master side of a terminal attached to the session, as
// `tmux attach` would give you: bytes written to it are typed into the
// session, and reading it yields the session's output, starting with a
// replay of the scrollback. The terminal is sized like the session and its
// slave side is in raw mode, so bytes pass through unchanged.
//
// At most one terminal is attached at a time; Attach while attached returns
// the current one (get-or-create). The terminal is closed by Detach, by
// Delete and when the child exits. Closing it yourself also detaches. A
// client that stops reading falls behind its output subscription and is
// detached (see Subscription).
//
// It is an ordinary *os.File on a PTY master, relayed to the session by two
// goroutines of this process; no helper program runs. Use it the usual
// way: Fd, term.MakeRaw(int(f.Fd())), term.GetSize. It starts
// non-blocking, so Detach and Close interrupt a Read or Write in progress;
// after Fd has switched it to blocking mode, Detach still returns promptly,
// and a Read in progress ends with an error once the relay has closed its
// side of the terminal.
func (s *Session) Attach() (*os.File, error) {
	<-s.ready
	if f, _ := s.lockedPTMX(); f != nil {
		return f, nil // get
	}
	ws, err := s.liveSize()
	if err != nil {
		return nil, err
	}
	t, err := s.openAttachment(ws) // create: slow, no lock held
	if err != nil {
		return nil, err
	}
	cur, installed := s.setPTYTriple(t)
	if !installed {
		// Another Attach won, or the session stopped taking attachments.
		t.teardown()
		if cur != nil {
			return cur, nil
		}
		if err := s.liveErr(); err != nil {
			return nil, err
		}
		return nil, ErrExited // the child exited; the state says so a moment later
	}
	go s.serveAttachment(t)
	return t.ptmx, nil
}

// Detach closes the attached terminal and stops its relay. The child keeps
// running, on its own PTY; Attach makes a new terminal. Detach returns once
// the terminal is closed and the relay writes nothing more to it. Without
// an attached terminal it returns ErrNotAttached, or ErrExited/ErrClosed if
// the session is no longer live.
func (s *Session) Detach() error {
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	t := s.clearPTYTriple(nil, false)
	if t.screen == nil {
		if err := s.liveErr(); err != nil {
			return err
		}
		return ErrNotAttached
	}
	t.teardown()
	return nil
}

// detachFinal tears down any attachment and forbids new ones. It is used
// when the child has exited and when start fails.
func (s *Session) detachFinal() {
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	s.clearPTYTriple(nil, true).teardown()
}

// serveAttachment is the attachment's goroutine, the keyboard half of the
// relay. It copies what is typed on the terminal (read from its slave side)
// into the session until the terminal hangs up or is closed, then detaches
// the session if this attachment is still the installed one, i.e. it ended
// on its own: the caller closed the terminal, or it fell behind the output
// and was hung up. A copy blocked in a Write the child does not read ends
// when the session does.
func (s *Session) serveAttachment(t ptyTriple) {
	defer s.attachers.Done()
	_, _ = io.Copy(sessionInput{s: s}, t.tty) // may block while the child does not read
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	s.clearPTYTriple(t.screen, false).teardown()
}

func (s *Session) liveSize() (pty.Winsize, error) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if err := stateErr(s.state); err != nil {
		return pty.Winsize{}, err
	}
	return s.size, nil
}

// openAttachment creates a user-facing PTY pair, puts its slave side in raw
// mode and starts the screen relay on it. It returns the triple, not yet
// installed; serveAttachment is started once it is.
func (s *Session) openAttachment(ws pty.Winsize) (t ptyTriple, err error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return ptyTriple{}, fmt.Errorf("sessionref: open terminal: %w", err)
	}
	// Both sides non-blocking, so that closing one interrupts a Read or
	// Write in progress on it (teardown relies on it).
	if ptmx, err = pollable(ptmx); err != nil {
		_ = tty.Close()
		return ptyTriple{}, fmt.Errorf("sessionref: open terminal: %w", err)
	}
	if tty, err = pollable(tty); err != nil {
		_ = ptmx.Close()
		return ptyTriple{}, fmt.Errorf("sessionref: open terminal: %w", err)
	}
	defer func() {
		if err != nil {
			_ = ptmx.Close()
			_ = tty.Close()
		}
	}()
	if err := setWinsize(ptmx, &ws); err != nil {
		return ptyTriple{}, fmt.Errorf("sessionref: size terminal: %w", err)
	}
	// Raw mode, as a tmux client sets on its terminal: keystrokes pass
	// through unchanged (the child's own terminal interprets them) and are
	// not echoed twice; output is not translated.
	if err := makeRaw(tty); err != nil {
		return ptyTriple{}, fmt.Errorf("sessionref: raw mode: %w", err)
	}
	// If the caller falls behind the output, hang up its terminal: the
	// keyboard copy then ends and serveAttachment detaches it.
	sub := s.out.subscribe(func() { _ = ptmx.Close() })
	return ptyTriple{ptmx: ptmx, tty: tty, screen: startScreen(tty, sub)}, nil
}

// sessionInput writes keystrokes to the child.
type sessionInput struct{ s *Session }

func (w sessionInput) Write(p []byte) (int, error) { return w.s.Write(p) }
