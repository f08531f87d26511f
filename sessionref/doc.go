// Package sessionref is a small terminal-session manager, the reference
// program bundled with guardvet. It runs commands under pseudo-terminals
// (github.com/creack/pty), keeps their output, lets clients attach and
// detach terminals the way tmux does, and gates reviewed commands through a
// per-session approval lock. Its concurrency code is annotated with guardvet
// directives and written in the plain style guardvet checks: every guarded
// field is touched inside a function that takes its lock, usually a small
// helper with Lock and defer Unlock.
//
// # Design
//
// A Manager holds sessions by id; the zero Manager is ready to use, with
// the default Options (its map is made under Manager.mu by the first
// Create). Create reserves the id, starts the child and returns a
// *Session; Delete and Close kill the child and release everything (file
// descriptors, goroutines, processes) before returning.
//
// Each Session owns one PTY for its whole life. The child runs on the slave
// side as a session leader with that PTY as its controlling terminal. The
// session keeps the master: a pump goroutine copies everything the child
// writes into a bounded scrollback (Output) and to live subscribers
// (Subscribe); Write and Resize act on the master directly. A wait goroutine
// reaps the child, lets the pump drain, and publishes the exit code.
//
// Because the child is a session leader, its pid is also the id of its
// process group, which its descendants join unless they leave it. The wait
// goroutine first waits for the child's exit without reaping it (waitid
// with WNOWAIT), so the id stays allocated, then kills what is left of the
// group, marks it gone under stateMu and only then reaps. Delete and Close
// kill the group through the same path (signalGroup, under stateMu), so a
// descendant that ignores the hang-up does not outlive its session, and no
// signal can reach a group that has reused the id. Processes that start a
// new session or group of their own are not followed. Signal sends any
// signal to the group through that path too, and Stop sends SIGTERM, waits
// for the session to be done until its context ends, then sends SIGKILL.
// Wait takes a context and returns an ExitStatus: the exit code, or the
// signal that killed the child (from its syscall.WaitStatus).
//
// Attaching works like a tmux client. Attach opens a second, user-facing
// PTY, puts its slave side in raw mode (termios, no stty), and relays
// between that slave and the session with two goroutines of this process;
// no helper program runs. The screen goroutine copies a subscription of the
// session's output, scrollback first, to the slave; the keyboard goroutine
// (serveAttachment) copies the slave into the session's input. The caller
// gets the master of that PTY, an ordinary *os.File that behaves like the
// terminal `tmux attach` runs in: term.MakeRaw and term.GetSize work on its
// descriptor. Detach closes both sides of that PTY (the keyboard copy ends),
// ends the subscription (the screen copy ends) and waits for the screen
// goroutine; the child never notices, because its own PTY is untouched.
// Attach again and a new terminal is made, replaying the scrollback. If the
// relay ends on its own (the caller closed the terminal, or it fell behind
// its output and was hung up) the session is detached automatically. The
// three things that make up an attachment — the user-facing master, its
// slave and the screen goroutine — are "the PTY triple".
//
// creack/pty leaves the descriptors it creates in blocking mode, where Close
// cannot interrupt a Read or Write in progress. Both masters and the
// attachment's slave are therefore re-opened as non-blocking, poller-backed
// files (term.go), so closing one reliably unblocks whoever is reading or
// writing it. The relay works only on the slave, which the caller never
// sees, so a caller that switches the master back to blocking mode (Fd
// does) cannot make Detach hang.
//
// # Lock order
//
// Lock order: detachMu before ptmxMu, declared with //guard:order on
// Session; ptmxMu is marked //guard:noblock. guardvet's lockorder and
// noblock rules check both.
//
// Session.detachMu serializes attachment teardown and may be held across
// blocking calls (closing files, waiting for the screen goroutine). Session.ptmxMu
// guards only the triple's pointers and is held for a few assignments, never
// across a Read, Write, Close, channel send or Wait.
//
// A per-id approval lock is an outer lock too: Approve holds it across the
// session lookup (Manager.mu), the Write (Session.stateMu, then blocking
// I/O) and the log append (Session.logMu). It is never taken while another
// lock is held, and approvalTable.mu is never held together with it.
//
// Every other lock is a leaf, held for a few statements with nothing else
// acquired inside: Manager.mu, approvalTable.mu, Session.stateMu,
// Session.logMu, output.mu and Subscription.mu.
// Session.stateMu is also held across kill(2) in signalGroup and endGroup:
// kill does not block, and holding the lock there is what keeps a signal
// from racing the reap of the child.
//
// # Patterns
//
// The package is a catalogue of the lock patterns guardvet checks. Each is
// annotated where it lives:
//
//  1. Guarded map with atomic check-and-change (manager.go). Manager.sessions
//     is //guard:by mu. reserve checks "open and id free" and inserts in one
//     critical section; take looks up and removes in one; takeAll marks the
//     manager closed and empties the map in one. No check-then-insert spans
//     two critical sections.
//  2. The PTY triple (pty.go, fields in session.go). Session.ptmx,
//     attachTTY and attachScreen are //guard:by ptmxMu and //guard:only
//     lockedPTMX setPTYTriple clearPTYTriple. Those helpers take ptmxMu
//     themselves. Closing goes through clearPTYTriple, which returns the old
//     triple; teardown then closes both sides and waits for the screen
//     goroutine on the snapshot with the lock released.
//  3. Lock order detachMu → ptmxMu (pty.go: Detach, detachFinal,
//     serveAttachment take detachMu and then call clearPTYTriple).
//  4. Per-session approval locks in a map guarded by its own lock
//     (approval.go). Entries are reference counted and removed only when no
//     one holds or waits for them (//guard:refcount), so deleting a session
//     can never let two approvals for one id run at once.
//  5. Output ring with a writer and readers (output.go). The pump appends
//     and copies the subscriber list under output.mu, then offers the chunk
//     to each subscriber outside it, with a select that has a default case.
//     A subscriber that falls behind is disconnected (ErrSlowSubscriber),
//     never waited for.
//     The ring drops old output only up to a safe point, tracked by a small
//     escape-sequence parser, so a replay never starts inside a UTF-8
//     sequence or an escape sequence.
//  6. Status and exit code written by the wait goroutine and read by
//     callers (session.go): Session.state and exit are //guard:by
//     stateMu.
//  7. Get-or-create that re-checks under the installing lock (pty.go:
//     Attach). Attach returns the current terminal if there is one;
//     otherwise it builds a new attachment with no lock held, and
//     setPTYTriple installs it only if, under ptmxMu, there is still none and
//     the session still takes attachments. The loser tears its own down.
//
// # Errors
//
// Bad input and calls on a session in the wrong state return errors that
// wrap the exported sentinels (ErrNotFound, ErrClosed, ErrExited,
// ErrInvalidSize, ...), testable with errors.Is, and leave nothing behind.
//
// Session ids are checked (at most MaxIDLen bytes of UTF-8, no control
// characters; ErrInvalidID), and an error quotes at most a short prefix of
// an id, an approval command or a program name, so caller input cannot
// flood logs.
//
// The package needs Linux (PTYs, termios and process groups through
// syscall); it runs no program other than the sessions' own commands.
package sessionref
