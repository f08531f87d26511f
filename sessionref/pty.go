package sessionref

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// relayScript is the attach client, run as `/bin/sh -c relayScript` on the
// slave side of the user-facing terminal, which is fd 3 (already raw).
// stdin carries the session's output; stdout carries keystrokes back.
//
//   - The screen cat (background) copies the session's output to the
//     terminal. It is started with the output on fd 4, because a background
//     job's own stdin is /dev/null.
//   - The keyboard cat (foreground) copies the terminal to stdout. It ends
//     when the terminal hangs up, i.e. when its master is closed.
//
// When the keyboard cat ends, the shell stops the screen cat and reaps it,
// so the client leaves neither orphans nor zombies, and stdout reaches EOF
// only once every process of the client is gone.
const relayScript = `exec 4<&0
cat <&4 >&3 &
s=$!
exec 4<&-
cat <&3
kill $s 2>/dev/null
wait`

// relayGrace bounds how long a teardown waits for the attach client to wind
// down by itself before it is killed.
const relayGrace = 5 * time.Second

// ptyTriple is a snapshot of the session's attachment fields.
type ptyTriple struct {
	ptmx *os.File
	cmd  *exec.Cmd
	wait *sync.Once
}

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
	s.ptmx, s.attachCmd, s.attachWaitOnce = t.ptmx, t.cmd, t.wait
	s.detached = false
	s.attachers.Add(1) // for the serveAttachment goroutine Attach starts next
	return t.ptmx, true
}

// clearPTYTriple removes the attachment and returns it, so the caller can
// tear it down outside ptmxMu. If owner is non-nil, it only clears the
// attachment whose client is owner (serveAttachment must not clear a newer one).
// If final is set, no attachment may be installed afterwards. Callers hold
// detachMu, so a cleared triple is always torn down before the next clear.
//
//guard:holds s.detachMu
func (s *Session) clearPTYTriple(owner *exec.Cmd, final bool) ptyTriple {
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	if final {
		s.attachClosed = true
	}
	if s.attachCmd == nil || (owner != nil && s.attachCmd != owner) {
		return ptyTriple{}
	}
	t := ptyTriple{ptmx: s.ptmx, cmd: s.attachCmd, wait: s.attachWaitOnce}
	s.ptmx, s.attachCmd, s.attachWaitOnce = nil, nil, nil
	s.detached = true
	return t
}

// teardown releases a snapshot taken by clearPTYTriple, or one that was
// never installed. It runs with ptmxMu released: it closes, may kill, and
// waits.
func (t ptyTriple) teardown() {
	if t.cmd == nil {
		return
	}
	_ = t.ptmx.Close() // hangs up the terminal: the keyboard cat ends
	t.stopScreen()     // the client's stdin copier ends
	// The client now exits by itself. Kill is only the fallback, for a
	// keyboard cat stuck writing keystrokes that serveAttachment cannot
	// deliver because the child does not read; it then ends when the
	// session does.
	kill := time.AfterFunc(relayGrace, func() { _ = t.cmd.Process.Kill() })
	t.reap()
	kill.Stop()
}

// stopScreen ends the output subscription feeding the client's stdin, so
// exec's copier goroutine, and with it cmd.Wait, can finish.
func (t ptyTriple) stopScreen() {
	if c, ok := t.cmd.Stdin.(io.Closer); ok {
		_ = c.Close()
	}
}

// reap waits for the client exactly once, however many goroutines ask.
func (t ptyTriple) reap() { t.wait.Do(func() { _ = t.cmd.Wait() }) }

// Attach returns the master side of a terminal attached to the session, as
// `tmux attach` would give you: bytes written to it are typed into the
// session, and reading it yields the session's output, starting with a
// replay of the scrollback. The terminal is sized like the session.
//
// At most one terminal is attached at a time; Attach while attached returns
// the current one (get-or-create). The terminal is closed by Detach, by
// Delete and when the child exits. Closing it yourself also detaches. A
// client that stops reading falls behind its output subscription and is
// detached (see Subscription).
//
// The terminal is non-blocking, so Detach and Close can interrupt a Read or
// Write in progress. Do not call its Fd method: that switches it back to
// blocking mode, and Detach could then hang on a pending Read.
func (s *Session) Attach() (*os.File, error) {
	<-s.ready
	if f, _ := s.lockedPTMX(); f != nil {
		return f, nil // get
	}
	ws, err := s.liveSize()
	if err != nil {
		return nil, err
	}
	t, keys, err := s.openAttachment(ws) // create: slow, no lock held
	if err != nil {
		return nil, err
	}
	cur, installed := s.setPTYTriple(t)
	if !installed {
		// Another Attach won, or the session stopped taking attachments.
		t.teardown()
		_ = keys.Close()
		if cur != nil {
			return cur, nil
		}
		if err := s.liveErr(); err != nil {
			return nil, err
		}
		return nil, ErrExited // the child exited; the state says so a moment later
	}
	go s.serveAttachment(t, keys)
	return t.ptmx, nil
}

// Detach closes the attached terminal and stops its attach client. The child
// keeps running, on its own PTY; Attach makes a new terminal. Detach returns
// once the client is reaped and the terminal closed. Without an attached
// terminal it returns ErrNotAttached, or ErrExited/ErrClosed if the session
// is no longer live.
func (s *Session) Detach() error {
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	t := s.clearPTYTriple(nil, false)
	if t.cmd == nil {
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

// serveAttachment is the attachment's goroutine. It copies keystrokes from
// the client to the session until the client has gone (its stdout reaches
// EOF only when all its processes have exited), reaps it, and detaches the
// session if this attachment is still the installed one, i.e. the client
// ended on its own: the terminal was closed, or it fell behind the output.
func (s *Session) serveAttachment(t ptyTriple, keys *os.File) {
	defer s.attachers.Done()
	_, _ = io.Copy(sessionInput{s: s}, keys) // may block while the child does not read
	_ = keys.Close()
	t.stopScreen()
	t.reap()
	s.detachMu.Lock()
	defer s.detachMu.Unlock()
	s.clearPTYTriple(t.cmd, false).teardown()
}

func (s *Session) liveSize() (pty.Winsize, error) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if err := stateErr(s.state); err != nil {
		return pty.Winsize{}, err
	}
	return s.size, nil
}

// openAttachment creates a user-facing PTY pair, puts it in raw mode and
// starts the attach client on its slave side. It returns the triple, not
// yet installed, and the read end of the client's keystroke pipe.
func (s *Session) openAttachment(ws pty.Winsize) (t ptyTriple, keys *os.File, err error) {
	ptmx, tty, err := pty.Open()
	if err == nil {
		ptmx, err = pollable(ptmx) // so Detach's Close interrupts a caller's Read
		if err != nil {
			_ = tty.Close()
		}
	}
	if err != nil {
		return ptyTriple{}, nil, fmt.Errorf("sessionref: open terminal: %w", err)
	}
	defer func() { _ = tty.Close() }() // the client holds its own copy
	defer func() {
		if err != nil {
			_ = ptmx.Close()
		}
	}()
	if err := setWinsize(ptmx, &ws); err != nil {
		return ptyTriple{}, nil, fmt.Errorf("sessionref: size terminal: %w", err)
	}
	// Raw mode, as a tmux client sets on its terminal: keystrokes pass
	// through unchanged (the child's own terminal interprets them) and are
	// not echoed twice.
	if err := makeRaw(tty); err != nil {
		return ptyTriple{}, nil, fmt.Errorf("sessionref: raw mode: %w", err)
	}

	keys, keysW, err := os.Pipe()
	if err != nil {
		return ptyTriple{}, nil, fmt.Errorf("sessionref: keystroke pipe: %w", err)
	}
	defer func() { _ = keysW.Close() }() // the client holds its own copy
	// If the client falls behind the output, hang up its terminal: the
	// client then winds down and serveAttachment detaches it.
	sub := s.out.subscribe(func() { _ = ptmx.Close() })
	cmd := exec.Command("/bin/sh", "-c", relayScript)
	cmd.Stdin = sub                  // screen: session output -> terminal
	cmd.Stdout = keysW               // keyboard: terminal -> serveAttachment -> session
	cmd.ExtraFiles = []*os.File{tty} // fd 3
	// Its own session, so signals aimed at our process group (a Ctrl-C in
	// the terminal running this program) do not reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		_ = sub.Close()
		_ = keys.Close()
		return ptyTriple{}, nil, fmt.Errorf("sessionref: start attach client: %w", err)
	}
	return ptyTriple{ptmx: ptmx, cmd: cmd, wait: new(sync.Once)}, keys, nil
}

// sessionInput writes keystrokes to the child.
type sessionInput struct{ s *Session }

func (w sessionInput) Write(p []byte) (int, error) { return w.s.Write(p) }
