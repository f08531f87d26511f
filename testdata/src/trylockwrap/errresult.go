package trylockwrap

import "errors"

// Error is a package's own error interface (gVisor's tcpip.Error).
type Error interface{ String() string }

type failure struct{}

func (failure) String() string { return "failed" }

// create returns a new locked E, or an error and no E (gVisor's
// createConnectingEndpoint): the lock is held only when the error is nil.
//
// +checklocksacquire:n.mu
func create(fail bool) (n *E, _ Error) {
	if fail {
		return nil, failure{}
	}
	n = &E{}
	n.mu.Lock()
	return n, nil
}

// The caller returns early on the error, with nothing locked.
func useCreate(fail bool) Error {
	n, err := create(fail)
	if err != nil {
		return err
	}
	n.n++
	n.mu.Unlock()
	return nil
}

// The same with the builtin error and the condition the other way round.
//
//guard:acquires n.mu
func open(fail bool) (n *E, err error) {
	if fail {
		return nil, errors.New("failed")
	}
	n = &E{}
	n.mu.Lock()
	return n, nil
}

func useOpen(fail bool) {
	n, err := open(fail)
	if err == nil {
		n.n++
		n.mu.Unlock()
	}
}

// Still reported: touching the guarded field before deciding, and
// forgetting the unlock on the success path.
func useOpenBadly(fail bool) error {
	n, err := open(fail)
	n.n++ // want `n.n written while n.mu is held on some paths only`
	if err != nil {
		return err
	}
	if n.n > 1 {
		return nil // want `return with n.mu still locked`
	}
	n.mu.Unlock()
	return nil
}

// An acquirer that holds the lock at every return is not conditional,
// whatever its results.
//
//guard:acquires n.mu
func always() (n *E, err error) {
	n = &E{}
	n.mu.Lock()
	return n, nil
}

func useAlways() {
	n, err := always()
	n.n++
	_ = err
	n.mu.Unlock()
}

// assertLockHeld panics unless locked, whose lock the caller holds, is e
// (gVisor's tcp.Endpoint.AssertLockHeld): after the check e.mu is held.
//
// +checklocks:locked.mu
// +checklocksacquire:e.mu
func (e *E) assertLockHeld(locked *E) {
	if e != locked {
		panic("assertLockHeld: not the locked endpoint")
	}
}

// Without the check nothing says e.mu is held.
//
// +checklocks:locked.mu
// +checklocksacquire:e.mu
func (e *E) assertNothing(locked *E) {
} // want `assertNothing returns with e.mu not held, breaking its //guard:acquires e.mu contract`

// Equal on the other branch: the early return leaves e.mu as it was.
//
// +checklocks:locked.mu
func (e *E) sameThenWrite(locked *E) {
	if e == locked {
		e.n++
	}
	e.n++ // want `e.n written while e.mu is held on some paths only`
}

// A result dropped with a blank identifier (sarama's `_ = b.Open(conf)`,
// where Open returns with the lock handed to a goroutine, or an error with
// nothing locked): the condition is lost, so the lock is held on some
// paths only, and the guarded field after it is reported; the engine must
// not need a type for the blank identifier.
//
//guard:acquires e.mu
func (e *E) start(fail bool) error {
	if fail {
		return errors.New("failed")
	}
	e.mu.Lock()
	return nil
}

func (e *E) startBlindly(fail bool) {
	_ = e.start(fail)
	e.n++ // want `e.n written while e.mu is held on some paths only`
	e.mu.Unlock()
}
