package sessionref

import "errors"

// Sentinel errors. Every error returned by this package that stems from bad
// input or from the state of a manager or session wraps one of these, so
// callers can test with errors.Is.
var (
	// ErrNotFound: no session with that id exists in the manager.
	ErrNotFound = errors.New("sessionref: session not found")
	// ErrExists: Spec.ID names a session that already exists.
	ErrExists = errors.New("sessionref: session id already in use")
	// ErrClosed: the session was deleted, or the manager was closed.
	ErrClosed = errors.New("sessionref: closed")
	// ErrExited: the session's child process has exited.
	ErrExited = errors.New("sessionref: session has exited")
	// ErrNotExited: ExitCode was called while the child is still running.
	ErrNotExited = errors.New("sessionref: session has not exited")
	// ErrInvalidSize: a terminal size is zero, negative or larger than 65535.
	ErrInvalidSize = errors.New("sessionref: invalid terminal size")
	// ErrInvalidSpec: the Spec cannot describe a session (for example, empty Argv).
	ErrInvalidSpec = errors.New("sessionref: invalid spec")
	// ErrInvalidSignal: Signal was given something that is not a valid
	// syscall.Signal.
	ErrInvalidSignal = errors.New("sessionref: invalid signal")
	// ErrInvalidID: a session id is empty where one is required, longer
	// than MaxIDLen bytes, not UTF-8, or contains a control character.
	ErrInvalidID = errors.New("sessionref: invalid session id")
	// ErrStart: the command could not be started. The underlying error
	// (for example exec.ErrNotFound) is wrapped as well.
	ErrStart = errors.New("sessionref: cannot start command")
	// ErrNotAttached: Detach was called while no terminal is attached.
	ErrNotAttached = errors.New("sessionref: no terminal attached")
	// ErrSlowSubscriber: a subscriber fell more than its buffer behind the
	// output and was disconnected. See Subscription.
	ErrSlowSubscriber = errors.New("sessionref: subscriber fell behind and was disconnected")
	// ErrInvalidCommand: an approval command is empty or contains a line break.
	ErrInvalidCommand = errors.New("sessionref: invalid approval command")
)
