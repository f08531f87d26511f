package sessionref

import (
	"fmt"
	"strings"
	"sync"
)

// Decision is one entry of a session's approval log.
type Decision struct {
	Cmd      string
	Approved bool
	Reason   string // why it was denied; empty for approvals
}

// Approve types cmd into session id followed by Enter, as a reviewed command
// would be run, and records the decision. Approvals and denials for one
// session are serialized: a second one waits until the first has finished
// typing, so their input never interleaves. Approve may block while the child
// is not reading its input; Delete unblocks it with ErrClosed.
//
// Errors: ErrInvalidCommand (empty or multi-line cmd), ErrNotFound,
// ErrExited, ErrClosed.
func (m *Manager) Approve(id, cmd string) error {
	if err := lookupID(id); err != nil {
		return err
	}
	if err := checkCommand(cmd); err != nil {
		return err
	}
	release := m.approvals.acquire(id)
	defer release()
	// Look the session up only once the per-id lock is held, so the
	// decision applies to the session that has that id now.
	s, err := m.Get(id)
	if err != nil {
		return err
	}
	if _, err := s.Write([]byte(cmd + "\r")); err != nil {
		return err
	}
	s.record(Decision{Cmd: cmd, Approved: true})
	return nil
}

// Deny records that cmd was refused for session id, for the given reason.
// Nothing is sent to the child. It is serialized with Approve.
func (m *Manager) Deny(id, cmd, reason string) error {
	if err := lookupID(id); err != nil {
		return err
	}
	if err := checkCommand(cmd); err != nil {
		return err
	}
	release := m.approvals.acquire(id)
	defer release()
	s, err := m.Get(id)
	if err != nil {
		return err
	}
	if err := s.liveErr(); err != nil {
		return err
	}
	s.record(Decision{Cmd: cmd, Reason: reason})
	return nil
}

func checkCommand(cmd string) error {
	if cmd == "" || strings.ContainsAny(cmd, "\r\n") {
		return fmt.Errorf("%w: %s", ErrInvalidCommand, quoteCut(cmd))
	}
	return nil
}

// approvalTable holds one lock per session id (pattern 4). The map of locks
// is itself guarded by mu. The zero value is ready to use: ref makes the
// maps on first use.
//
// Entries are reference counted: refs counts the holder and the waiters of
// an id's lock, and an entry is removed only when refs drops to zero. So an
// entry is never deleted while held. Deleting a session does not touch this
// table at all; if it did, a new approval could get a fresh lock while the
// old one is still held, and two approvals for one id could run at once.
type approvalTable struct {
	mu sync.Mutex //guard:noblock
	//guard:by mu
	//guard:refcount refs
	locks map[string]*sync.Mutex
	//guard:by mu
	refs map[string]int
}

// acquire locks id's approval lock and returns the function that releases
// it. The table lock is not held while waiting for the id's lock.
func (t *approvalTable) acquire(id string) (release func()) {
	l := t.ref(id)
	l.Lock()
	return func() {
		l.Unlock()
		t.unref(id)
	}
}

// ref returns id's lock, creating it if needed, and counts the caller.
func (t *approvalTable) ref(id string) *sync.Mutex {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.locks == nil {
		t.locks = make(map[string]*sync.Mutex)
		t.refs = make(map[string]int)
	}
	l, ok := t.locks[id]
	if !ok {
		l = new(sync.Mutex)
		t.locks[id] = l
	}
	t.refs[id]++
	return l
}

// unref drops the caller's reference and removes the entry once nobody
// holds or waits for it.
func (t *approvalTable) unref(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refs[id]--
	if t.refs[id] == 0 {
		delete(t.refs, id)
		delete(t.locks, id)
	}
}

// size returns the number of live entries (for tests).
func (t *approvalTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.locks)
}
