// Package machine is a state machine whose Restore re-checks the state
// itself before it acts: a caller's earlier check does not decide it.
package machine

import "sync"

const (
	Idle = iota
	Restoring
	Running
)

type Machine struct {
	mu    sync.Mutex
	state int //guard:by mu
}

func (m *Machine) State() int { // want State:`fieldops\(reads m\.state\)`
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// Restore looks at the state again and returns unless it is Restoring;
// only then does it act. Its own check and act are two sections, which is
// its own finding.
func (m *Machine) Restore() error { // want Restore:`fieldops\(reads-internally m\.state, decides-writes m\.state\)`
	m.mu.Lock()
	s := m.state
	m.mu.Unlock()
	if s != Restoring {
		return errNotRestoring
	}
	m.mu.Lock()
	m.state = Running // want `check-then-act: m.state was read at line 29 and the lock released`
	m.mu.Unlock()
	return nil
}

// Start writes whatever the caller decided.
func (m *Machine) Start() { // want Start:`fieldops\(writes m\.state\)`
	m.mu.Lock()
	m.state = Running
	m.mu.Unlock()
}

// Reset is decided by a read of the state in some other machine's lock:
// not the field it writes.
func (m *Machine) Reset() { // want Reset:`fieldops\(writes m\.state\)`
	m.mu.Lock()
	m.state = Idle
	m.mu.Unlock()
}

// Resume returns an error naming the state unless it is Restoring, and
// only then acts: through run, and in a deferred closure if that fails.
func (m *Machine) Resume() (err error) { // want Resume:`fieldops\(decides-writes m\.state, reads m\.state\)`
	m.mu.Lock()
	s := m.state
	m.mu.Unlock()
	if s != Restoring {
		return stateError(s)
	}
	defer func() {
		if err != nil {
			m.fail()
		}
	}()
	return m.run() // want `check-then-act: m.state was read at line 59 and the lock released; this write, in a later critical section \(opened by m.run\)`
}

func (m *Machine) run() error { // want run:`fieldops\(writes m\.state\)`
	m.mu.Lock()
	m.state = Running
	m.mu.Unlock()
	return nil
}

func (m *Machine) fail() { // want fail:`fieldops\(writes m\.state\)`
	m.mu.Lock()
	m.state = Idle
	m.mu.Unlock()
}

func stateError(s int) error { return errString("bad state " + string(rune('0'+s))) }

type errString string

func (e errString) Error() string { return string(e) }

const errNotRestoring = errString("not restoring")
