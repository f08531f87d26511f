package sessionref

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/creack/pty"
)

// Options configures a Manager. Zero fields take their defaults.
type Options struct {
	// Scrollback is the most output bytes kept per session (default
	// 256 KiB). The oldest bytes are dropped up to a point where a terminal
	// can start reading: never inside a UTF-8 sequence or an escape
	// sequence, so a little less may be kept.
	Scrollback int
	// SubscriberBuffer is the number of output chunks a subscriber may have
	// queued before it is disconnected as too slow (default 256).
	SubscriberBuffer int
}

const (
	defaultScrollback       = 256 << 10
	defaultSubscriberBuffer = 256
)

// Spec describes the session to create.
type Spec struct {
	// ID names the session. If empty, Create generates one. Otherwise it
	// must be valid UTF-8 of at most MaxIDLen bytes, without control
	// characters.
	ID string
	// Argv is the command and its arguments; Argv[0] is looked up in PATH.
	Argv []string
	// Env is the child's environment; nil means the manager's own. TERM is
	// added if missing.
	Env []string
	// Dir is the child's working directory; empty means the manager's.
	Dir string
	// Rows and Cols are the initial terminal size; both must be in 1..65535.
	Rows, Cols int
}

// MaxIDLen is the longest session id, in bytes.
const MaxIDLen = 128

// inMessages is how many bytes of an id or a command an error message
// quotes at most.
const inMessages = 40

// checkID reports whether id can name a session: 1 to MaxIDLen bytes of
// valid UTF-8 without control characters. Its errors quote at most
// inMessages bytes of id.
func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrInvalidID)
	case len(id) > MaxIDLen:
		return fmt.Errorf("%w: %d bytes, more than %d: %s", ErrInvalidID, len(id), MaxIDLen, quoteCut(id))
	case !utf8.ValidString(id):
		return fmt.Errorf("%w: not UTF-8: %s", ErrInvalidID, quoteCut(id))
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		return fmt.Errorf("%w: contains a control character: %s", ErrInvalidID, quoteCut(id))
	}
	return nil
}

// quoteCut quotes s (an id, a command, a program name) for an error
// message, cut to inMessages bytes (at a rune boundary) with its length
// noted if it is longer: errors never echo unbounded caller input.
func quoteCut(s string) string {
	if len(s) <= inMessages {
		return strconv.Quote(s)
	}
	cut := inMessages
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}

// lookupID checks an id given to Get, Delete, Approve or Deny. An invalid
// id cannot name a session, so the error wraps ErrNotFound as well.
func lookupID(id string) error {
	if err := checkID(id); err != nil {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	return nil
}

// Manager owns a set of sessions. All methods are safe for concurrent use.
// The zero Manager is ready to use, with the default Options; NewManager
// sets other ones. A Manager must not be copied after first use.
type Manager struct {
	opts      Options // set by NewManager, read-only afterwards; defaults applied per session
	approvals approvalTable

	// Pattern 1: the session map, the closed flag and the id counter are
	// guarded by mu. Every check-and-change of the map (id free? manager
	// open? then insert; present? then remove) happens in one critical
	// section, so Create, Delete and Close are atomic with respect to each
	// other.
	mu sync.Mutex //guard:noblock
	//guard:by mu
	sessions map[string]*Session
	//guard:by mu
	closed bool
	//guard:by mu
	seq uint64
}

// NewManager returns an empty manager.
func NewManager(opts Options) *Manager {
	return &Manager{opts: opts.withDefaults()}
}

// withDefaults returns o with every zero or negative field set to its default.
func (o Options) withDefaults() Options {
	if o.Scrollback <= 0 {
		o.Scrollback = defaultScrollback
	}
	if o.SubscriberBuffer <= 0 {
		o.SubscriberBuffer = defaultSubscriberBuffer
	}
	return o
}

// Create starts a session running spec.Argv on a new terminal of the given
// size and returns it in StatusRunning. ctx is checked before starting; the
// session's lifetime is not tied to it.
//
// On failure nothing is left behind. Errors: ErrInvalidSpec (also
// ErrInvalidID for a bad Spec.ID), ErrInvalidSize,
// ErrExists, ErrClosed (manager closed, or the session was deleted while it
// started), or ErrStart wrapping the reason the command could not start.
func (m *Manager) Create(ctx context.Context, spec Spec) (*Session, error) {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return nil, fmt.Errorf("%w: empty argv", ErrInvalidSpec)
	}
	if spec.ID != "" {
		if err := checkID(spec.ID); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidSpec, err)
		}
	}
	ws, err := winsize(spec.Rows, spec.Cols)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.lazyInit()
	s, err := m.reserve(spec, ws)
	if err != nil {
		return nil, err
	}
	// The session is in the map as StatusStarting, so its id is taken and
	// Delete/Close can see it; the slow start runs without m.mu.
	if err := s.start(); err != nil {
		m.forget(s)
		if errors.Is(err, ErrClosed) {
			return nil, err
		}
		return nil, fmt.Errorf("%w %s: %w", ErrStart, quoteCut(spec.Argv[0]), err)
	}
	return s, nil
}

// lazyInit makes the session map of a zero Manager. It is the only place
// that inserts need it: reading, deleting from and clearing a nil map are
// all fine, and once made the map is never set back to nil.
func (m *Manager) lazyInit() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions == nil {
		m.sessions = make(map[string]*Session)
	}
}

// reserve checks that the manager is open and the id is free, and inserts
// a starting session, all in one critical section.
func (m *Manager) reserve(spec Spec, ws pty.Winsize) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	id := spec.ID
	if id != "" {
		if _, taken := m.sessions[id]; taken {
			return nil, fmt.Errorf("%w: %q", ErrExists, id)
		}
	}
	m.seq++
	if id == "" {
		for {
			id = "s" + strconv.FormatUint(m.seq, 10)
			if _, taken := m.sessions[id]; !taken {
				break
			}
			m.seq++ // a caller chose this name explicitly; try the next one
		}
	}
	s := newSession(id, m.seq, spec, ws, m.opts)
	m.sessions[id] = s
	return s, nil
}

// forget removes s from the map if it is still there (a Delete or Close may
// already have taken it).
func (m *Manager) forget(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
}

// Get returns the session with the given id. An invalid id (see
// Spec.ID) is ErrNotFound and ErrInvalidID.
func (m *Manager) Get(id string) (*Session, error) {
	if err := lookupID(id); err != nil {
		return nil, err
	}
	return m.get(id)
}

func (m *Manager) get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	s, ok := m.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, quoteCut(id))
	}
	return s, nil
}

// List returns the sessions in creation order.
func (m *Manager) List() []*Session {
	m.mu.Lock()
	list := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		list = append(list, s)
	}
	m.mu.Unlock()
	slices.SortFunc(list, func(a, b *Session) int { return cmp.Compare(a.seq, b.seq) })
	return list
}

// Delete removes the session and shuts it down: the child is killed, the
// attached terminal (if any) is detached, subscribers see the end of the
// output, and Delete returns when everything is released. It is safe while
// an Attach, an output stream or an approval on the session is in progress;
// those return ErrClosed (or end their stream).
func (m *Manager) Delete(id string) error {
	if err := lookupID(id); err != nil {
		return err
	}
	s, err := m.take(id)
	if err != nil {
		return err
	}
	s.shutdown()
	return nil
}

// take looks up and removes a session in one critical section, so two
// Deletes of one id cannot both shut it down.
func (m *Manager) take(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	s, ok := m.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, quoteCut(id))
	}
	delete(m.sessions, id)
	return s, nil
}

// Close shuts every session down and makes every later call fail with
// ErrClosed. A second Close returns ErrClosed.
func (m *Manager) Close() error {
	all, err := m.takeAll()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(s.shutdown)
	}
	wg.Wait()
	return nil
}

func (m *Manager) takeAll() ([]*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	m.closed = true
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	clear(m.sessions)
	return all, nil
}
