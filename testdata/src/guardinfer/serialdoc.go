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

// ReqCtx is documented as unsafe to share between goroutines, in other
// words (fasthttp's RequestCtx): silent.
//
// It is unsafe modifying/reading ReqCtx instance from concurrently
// running goroutines.
type ReqCtx struct {
	mu   sync.Mutex
	conn int
}

func (c *ReqCtx) Reset(n int) {
	c.mu.Lock()
	c.conn = n
	c.mu.Unlock()
}

func (c *ReqCtx) Conn() int { return c.conn }

// UnsafeConn: "unsafe for concurrent use". Silent.
//
// An UnsafeConn is unsafe for concurrent use.
type UnsafeConn struct {
	mu     sync.Mutex
	status int
}

func (c *UnsafeConn) Copy() {
	c.mu.Lock()
	c.status = 2
	c.mu.Unlock()
}

func (c *UnsafeConn) Close() bool { return c.status == 0 }
