package guardinfer

import "sync"

// PgConn is documented as not for concurrent use: its exported methods are
// never called at once, so Close's bare read of status does not race with
// Copy's locked write (pgx's PgConn, "It is not safe for concurrent
// usage"). The lock serves a goroutine of Copy's own.
//
// A PgConn is not safe for concurrent use by multiple goroutines.
type PgConn struct {
	mu     sync.Mutex
	status int
}

func (c *PgConn) Copy() {
	c.mu.Lock()
	c.status = 2
	c.mu.Unlock()
}

func (c *PgConn) Close() bool { return c.status == 0 }

// SafeConn says the opposite, and the same pair is reported.
//
// A SafeConn is safe for concurrent use by multiple goroutines.
type SafeConn struct {
	mu     sync.Mutex
	status int
}

func (c *SafeConn) Copy() {
	c.mu.Lock()
	c.status = 2
	c.mu.Unlock()
}

func (c *SafeConn) Close() bool { return c.status == 0 } // want `c.status is read here with no lock held \(in exported SafeConn.Close\), and written at serialdoc.go:\d+ with c.mu held \(in exported SafeConn.Copy\)`
