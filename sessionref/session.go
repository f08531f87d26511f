package sessionref

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/creack/pty"
)

// Status is a session's lifecycle state.
//
//	starting ──► running ◄──► detached
//	   │            │            │
//	   │            ▼            ▼
//	   │          exited ◄───────┘
//	   ▼            │
//	 closed ◄───────┘ (Delete or Manager.Close, from any state)
type Status int

const (
	// StatusStarting: Create has reserved the session and is starting the child.
	StatusStarting Status = iota
	// StatusRunning: the child is alive and the session is not detached.
	StatusRunning
	// StatusDetached: the child is alive, its terminal was detached (by
	// Detach, or because the attached terminal went away) and not re-attached.
	StatusDetached
	// StatusExited: the child has exited and its output has been drained.
	StatusExited
	// StatusClosed: the session was deleted; all its resources are released.
	StatusClosed
)

func (st Status) String() string {
	switch st {
	case StatusStarting:
		return "starting"
	case StatusRunning:
		return "running"
	case StatusDetached:
		return "detached"
	case StatusExited:
		return "exited"
	case StatusClosed:
		return "closed"
	}
	return fmt.Sprintf("Status(%d)", int(st))
}

// drainGrace bounds how long the wait goroutine waits, after the child has
// exited, for the rest of its output. Output normally ends at once; it can
// only linger if a descendant of the child still holds the terminal.
const drainGrace = 500 * time.Millisecond

// Session is one child process running under its own PTY. All methods are
// safe for concurrent use.
//
// Lock order inside a Session: detachMu before ptmxMu, declared below and
// checked by guardvet's lockorder rule. stateMu, logMu and the output locks
// are leaves: nothing else is acquired while they are held.
//
//guard:order detachMu ptmxMu
type Session struct {
	id   string
	seq  uint64
	argv []string
	env  []string
	dir  string

	ready chan struct{} // closed when start has finished, successfully or not
	done  chan struct{} // closed when the child is reaped, output drained and attachments torn down

	out *output

	// Pattern 6: the lifecycle state and exit code are written by the wait
	// goroutine (and by start and shutdown) and read by callers, all under
	// stateMu. master and child are published under stateMu by start.
	stateMu sync.Mutex //guard:noblock
	//guard:by stateMu
	state Status // never StatusDetached: Status derives that from the attachment
	//guard:by stateMu
	exit ExitStatus
	//guard:by stateMu
	master *os.File // the child's PTY master, owned by the session
	//guard:by stateMu
	child *exec.Cmd
	//guard:by stateMu
	size pty.Winsize
	// groupGone: the wait goroutine has seen the child exit and killed
	// what was left of its process group. Until then the child is not
	// reaped, so its pid, which is also its process group id, cannot be
	// reused and signalling the group is safe; afterwards it never is.
	//guard:by stateMu
	groupGone bool

	// Attachment (see pty.go). detachMu serializes attachment teardown and
	// may be held across blocking calls; ptmxMu only guards the pointers
	// below and is never held across blocking I/O.
	// ptmxMu is //guard:noblock: the noblock rule reports any blocking
	// operation while it is held.
	detachMu sync.Mutex
	ptmxMu   sync.Mutex //guard:noblock

	// Pattern 2: the PTY triple. Only the three helpers touch it; each takes
	// ptmxMu itself and returns or installs a snapshot, so closing and
	// waiting always run on the snapshot outside the lock.

	// ptmx is the user-facing master of the attached terminal.
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	ptmx *os.File
	// attachTTY is the slave side of the attached terminal, which the relay
	// reads keystrokes from and writes output to.
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachTTY *os.File
	// attachScreen is the relay's output goroutine. It also identifies the
	// attachment: serveAttachment clears only its own.
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachScreen *screen
	// detached is set by clearPTYTriple and reset by setPTYTriple, in the
	// same critical section as the triple, so it always agrees with it.
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	detached bool
	// attachClosed: the child has exited or the session is closing; no new
	// attachment may be installed.
	//guard:by ptmxMu
	//guard:only lockedPTMX setPTYTriple clearPTYTriple
	attachClosed bool
	// attachers counts running serveAttachment goroutines. Add happens in
	// setPTYTriple, under ptmxMu and only before attachClosed is set, so the
	// final Wait in waitChild never races an Add.
	attachers sync.WaitGroup

	logMu sync.Mutex //guard:noblock
	//guard:by logMu
	decisions []Decision
}

func newSession(id string, seq uint64, spec Spec, ws pty.Winsize, opts Options) *Session {
	opts = opts.withDefaults() // a zero Manager has zero Options
	return &Session{
		id:    id,
		seq:   seq,
		argv:  append([]string(nil), spec.Argv...),
		env:   childEnv(spec.Env),
		dir:   spec.Dir,
		ready: make(chan struct{}),
		done:  make(chan struct{}),
		out:   newOutput(opts.Scrollback, opts.SubscriberBuffer),
		state: StatusStarting,
		size:  ws,
	}
}

// childEnv returns the child's environment: env, or the manager's
// environment if env is nil, with TERM set if it is missing.
func childEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := append([]string(nil), env...)
	for _, kv := range out {
		if strings.HasPrefix(kv, "TERM=") {
			return out
		}
	}
	return append(out, "TERM=xterm")
}

// ID returns the session's id.
func (s *Session) ID() string { return s.id }

// Status returns the session's current state.
func (s *Session) Status() Status {
	st := s.lockedState()
	if st == StatusRunning {
		if _, detached := s.lockedPTMX(); detached {
			return StatusDetached
		}
	}
	return st
}

// Pid returns the child's process id, or 0 if it never started.
func (s *Session) Pid() int {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.child == nil || s.child.Process == nil {
		return 0
	}
	return s.child.Process.Pid
}

// Size returns the session's terminal size.
func (s *Session) Size() (rows, cols int) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return int(s.size.Rows), int(s.size.Cols)
}

// Write sends p to the child as terminal input. It may block while the
// child is not reading. After the child exits it fails with ErrExited, after
// Delete with ErrClosed.
func (s *Session) Write(p []byte) (int, error) {
	<-s.ready
	master, err := s.liveMaster()
	if err != nil {
		return 0, err
	}
	// Outside every lock: this can block for as long as the child does not read.
	n, err := master.Write(p)
	if err != nil {
		return n, s.ioErr(err)
	}
	return n, nil
}

// Resize changes the terminal size the child sees (it gets SIGWINCH), and
// mirrors it onto the attached terminal, if any.
func (s *Session) Resize(rows, cols int) error {
	ws, err := winsize(rows, cols)
	if err != nil {
		return err
	}
	<-s.ready
	if err := s.resizeChild(ws); err != nil {
		return err
	}
	if f, _ := s.lockedPTMX(); f != nil {
		_ = setWinsize(f, &ws) // best effort: the terminal may be detaching right now
	}
	return nil
}

// resizeChild records the size and applies it to the child's PTY. The ioctl
// does not block; doing it under stateMu keeps size equal to what the kernel
// has when Resizes race.
func (s *Session) resizeChild(ws pty.Winsize) error {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if err := stateErr(s.state); err != nil {
		return err
	}
	if err := setWinsize(s.master, &ws); err != nil {
		// The wait goroutine closes master once the child has gone.
		return fmt.Errorf("%w: %w", ErrExited, err)
	}
	s.size = ws
	return nil
}

// Output returns a copy of the scrollback: the last Options.Scrollback bytes
// (or a few fewer, see Options.Scrollback) the child wrote. It stays available after the child exits or the session
// is deleted.
func (s *Session) Output() []byte { return s.out.snapshot() }

// Subscribe returns a live view of the output, starting with the current
// scrollback. See Subscription for the back-pressure rules. After the output
// has ended, the subscription yields the scrollback and is then closed.
func (s *Session) Subscribe() *Subscription { return s.out.subscribe(nil) }

// Done is closed once the child has exited (or been killed by Delete), its
// output has been drained and every attachment torn down.
func (s *Session) Done() <-chan struct{} { return s.done }

// ExitStatus is how the child ended.
type ExitStatus struct {
	// Code is the code the child passed to exit, or -1 if a signal killed it.
	Code int
	// Signal is the signal that killed the child, or 0 if it exited.
	Signal syscall.Signal
	// CoreDumped reports whether the child dumped core when Signal killed it.
	CoreDumped bool
}

// Signaled reports whether a signal killed the child.
func (e ExitStatus) Signaled() bool { return e.Signal != 0 }

// ShellCode returns Code, or 128+n if signal n killed the child, as a shell
// reports it in $?.
func (e ExitStatus) ShellCode() int {
	if e.Signaled() {
		return 128 + int(e.Signal)
	}
	return e.Code
}

func (e ExitStatus) String() string {
	switch {
	case e.CoreDumped:
		return fmt.Sprintf("killed by signal %d (%v, core dumped)", int(e.Signal), e.Signal)
	case e.Signaled():
		return fmt.Sprintf("killed by signal %d (%v)", int(e.Signal), e.Signal)
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

// Wait blocks until Done is closed and returns how the child ended. If ctx
// ends first it returns ctx.Err() and leaves the session running; nothing
// is left waiting behind it.
func (s *Session) Wait(ctx context.Context) (ExitStatus, error) {
	select {
	case <-s.done:
	default:
		select {
		case <-s.done:
		case <-ctx.Done():
			return ExitStatus{}, ctx.Err()
		}
	}
	return s.exitStatus(), nil
}

// ExitCode returns the child's exit status, or 128+n if it was killed by
// signal n, as a shell reports it (ExitStatus.ShellCode). Before the
// session is done it returns ErrNotExited.
func (s *Session) ExitCode() (int, error) {
	select {
	case <-s.done:
	default:
		return 0, ErrNotExited
	}
	return s.exitStatus().ShellCode(), nil
}

func (s *Session) exitStatus() ExitStatus {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.exit
}

// Signal sends sig to the child's process group: the child and every
// descendant that has not left the group. sig must be a syscall.Signal.
// Signal 0 checks that the group can be signalled. It fails with ErrExited
// once the child has exited (its group has then been killed) and with
// ErrClosed after Delete.
func (s *Session) Signal(sig os.Signal) error {
	ss, ok := sig.(syscall.Signal)
	if !ok {
		return fmt.Errorf("%w: %v is not a syscall.Signal", ErrInvalidSignal, sig)
	}
	<-s.ready
	if err := s.signalGroup(ss, false); err != nil {
		if errors.Is(err, syscall.EINVAL) {
			return fmt.Errorf("%w: %v: %w", ErrInvalidSignal, sig, err)
		}
		return err
	}
	return nil
}

// Stop ends the child gracefully: it sends SIGTERM to the child's process
// group and waits for the session to be done; if ctx ends first, it sends
// SIGKILL and waits for that. It returns nil once the session is done,
// however the child ended (ExitStatus tells), and ErrClosed after Delete.
// With a ctx that never ends, Stop waits as long as the child ignores
// SIGTERM.
func (s *Session) Stop(ctx context.Context) error {
	if err := s.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, ErrExited) {
		return err
	}
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
	}
	_ = s.signalGroup(syscall.SIGKILL, true) // ErrExited if it ended meanwhile
	<-s.done
	return nil
}

// Decisions returns the approval decisions taken for this session, in the
// order they were taken.
func (s *Session) Decisions() []Decision {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]Decision(nil), s.decisions...)
}

func (s *Session) record(d Decision) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	s.decisions = append(s.decisions, d)
}

// --- lifecycle -------------------------------------------------------------

// start launches the child on a new PTY and the two goroutines that serve
// it. It is called once, by Create, with no lock held.
func (s *Session) start() error {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = s.env
	cmd.Dir = s.dir
	ws := s.currentSize()
	// The child becomes a session leader with the PTY as its controlling
	// terminal, so it and its job get SIGHUP when the terminal goes away.
	// Its pid is therefore also the id of its process group (and session),
	// which holds its descendants unless they leave it.
	master, err := pty.StartWithSize(cmd, &ws)
	if err == nil {
		master, err = pollable(master)
		if err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // not reaped yet: the group id is ours
			_ = cmd.Wait()
		}
	}
	if err != nil {
		s.startFailed()
		return err
	}
	pumpDone := make(chan struct{})
	closing := s.setStarted(cmd, master)
	go s.pump(master, pumpDone)
	go s.waitChild(cmd, master, pumpDone)
	close(s.ready)
	if closing {
		// Deleted while starting: shutdown is waiting on ready and will stop it.
		return ErrClosed
	}
	return nil
}

func (s *Session) currentSize() pty.Winsize {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.size
}

// setStarted publishes the child and reports whether the session was closed
// while it was starting.
func (s *Session) setStarted(cmd *exec.Cmd, master *os.File) (closing bool) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.child = cmd
	s.master = master
	if s.state == StatusStarting {
		s.state = StatusRunning
	}
	return s.state == StatusClosed
}

func (s *Session) startFailed() {
	s.stateMu.Lock()
	s.state = StatusClosed
	s.stateMu.Unlock()
	s.detachFinal() // no attachment can exist; this just forbids new ones
	s.out.finish()
	close(s.done)
	close(s.ready)
}

// pump copies the child's output into the scrollback and to subscribers
// until the PTY reports EOF/EIO (every slave fd closed) or master is closed.
func (s *Session) pump(master *os.File, done chan<- struct{}) {
	defer close(done)
	defer s.out.finish()
	buf := make([]byte, 32*1024)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			s.out.write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// waitChild is the session's wait goroutine: it waits for the child to
// exit, kills what is left of its process group, reaps the child, lets the
// pump drain, tears down any attachment and publishes the exit status.
func (s *Session) waitChild(cmd *exec.Cmd, master *os.File, pumpDone <-chan struct{}) {
	// Wait for the exit without reaping: while the child is a zombie its
	// pid stays allocated, so the group id cannot name anyone else's group.
	waitExit(cmd.Process.Pid)
	s.endGroup(cmd.Process.Pid)
	_ = cmd.Wait() // reaps; the status is read from ProcessState below
	status := exitStatusOf(cmd.ProcessState)

	timer := time.NewTimer(drainGrace)
	select {
	case <-pumpDone:
	case <-timer.C:
	}
	timer.Stop()
	_ = master.Close() // unblocks the pump, pending Writes and the relay's keystroke copy
	<-pumpDone

	s.detachFinal()
	s.attachers.Wait() // safe: detachFinal forbade further Adds

	s.setExited(status)
	close(s.done)
}

// endGroup kills whatever is left of the child's process group (its
// descendants, unless they left the group) and marks the group gone, so no
// later signal can reach a group that reuses the id. The child has exited
// but is not reaped yet. kill(2) does not block.
func (s *Session) endGroup(pgid int) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	s.groupGone = true
}

// signalGroup sends sig to the child's process group. It fails with
// ErrClosed if the child never started or, unless evenClosed, if the
// session was deleted, and with ErrExited once the child has exited.
func (s *Session) signalGroup(sig syscall.Signal, evenClosed bool) error {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.child == nil || s.child.Process == nil || (s.state == StatusClosed && !evenClosed) {
		return ErrClosed
	}
	if s.groupGone {
		return ErrExited
	}
	// The child is not reaped (groupGone is set before that, under this
	// lock), so the group exists and its id is still the child's pid.
	return syscall.Kill(-s.child.Process.Pid, sig)
}

// waitExit blocks until process pid has exited, without reaping it
// (waitid with WNOWAIT), so that os/exec can still reap it with Wait.
func waitExit(pid int) {
	var info [128]byte // siginfo_t; only the wait matters here
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pWaitPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return // exited, or an error (ECHILD) that cmd.Wait will report
		}
	}
}

// pWaitPID is P_PID for waitid(2).
const pWaitPID = 1

func (s *Session) setExited(status ExitStatus) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.exit = status
	if s.state != StatusClosed {
		s.state = StatusExited
	}
}

// shutdown closes the session: it kills the child, releases the PTY and
// waits until every goroutine of the session is gone. The manager calls it
// exactly once, after removing the session from its map.
func (s *Session) shutdown() {
	s.markClosed()
	<-s.ready // start has published child and master, or failed
	master := s.handle()
	// Kill the child's whole process group, so descendants (even ones that
	// ignore the hang-up) go too. After the child has exited this is
	// ErrExited: the wait goroutine has already killed the group.
	_ = s.signalGroup(syscall.SIGKILL, true)
	if master != nil {
		_ = master.Close() // hangs up the terminal and unblocks the pump and any Write
	}
	<-s.done
}

func (s *Session) markClosed() {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.state = StatusClosed
}

func (s *Session) handle() *os.File {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.master
}

func (s *Session) lockedState() Status {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.state
}

// liveErr returns ErrExited or ErrClosed if the session can no longer take
// input, nil otherwise.
func (s *Session) liveErr() error { return stateErr(s.lockedState()) }

func stateErr(st Status) error {
	switch st {
	case StatusExited:
		return ErrExited
	case StatusClosed:
		return ErrClosed
	}
	return nil
}

// liveMaster returns the child's PTY master if the session is live.
func (s *Session) liveMaster() (*os.File, error) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if err := stateErr(s.state); err != nil {
		return nil, err
	}
	return s.master, nil
}

// ioErr maps an I/O error on master to a sentinel: the master is only ever
// closed by the wait goroutine (child gone) or by shutdown (session closed).
func (s *Session) ioErr(err error) error {
	if e := s.liveErr(); e != nil {
		return fmt.Errorf("%w: %w", e, err)
	}
	if errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EIO) {
		return fmt.Errorf("%w: %w", ErrExited, err)
	}
	return err
}

func exitStatusOf(ps *os.ProcessState) ExitStatus {
	if ps == nil {
		return ExitStatus{Code: -1}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Code: -1, Signal: ws.Signal(), CoreDumped: ws.CoreDump()}
	}
	return ExitStatus{Code: ps.ExitCode()}
}

func winsize(rows, cols int) (pty.Winsize, error) {
	if rows <= 0 || cols <= 0 || rows > 0xffff || cols > 0xffff {
		return pty.Winsize{}, fmt.Errorf("%w: %dx%d", ErrInvalidSize, rows, cols)
	}
	return pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}, nil
}
