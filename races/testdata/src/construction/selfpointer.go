package construction

import (
	"bufio"
	"io"
	"net"
	"sync"
)

// A connection whose write buffer points into the connection itself
// (c.wb.w = &c.wbuf): storing the address of one of an object's own
// fields into another of them publishes nothing, so the set-up before
// the connection is handed out is no race with the locked writes.

type writeBuffer struct{ w io.Writer }

func (wb *writeBuffer) write(b []byte) { wb.w.Write(b) }

type Conn struct {
	wlock sync.Mutex
	wbuf  bufio.Writer
	wb    writeBuffer
}

func NewConn(conn net.Conn) *Conn {
	c := &Conn{wbuf: *bufio.NewWriter(conn)}
	c.wb.w = &c.wbuf
	return c
}

func (c *Conn) Send(b []byte) {
	c.wlock.Lock()
	defer c.wlock.Unlock()
	c.wb.write(b)
}

// Swap replaces the buffer without the lock: a race with Send's read.
func (c *Conn) Swap(w io.Writer) {
	c.wb.w = w // want `writeBuffer.w written in Conn.Swap \(exported method: Conn.Swap\) races with its read in writeBuffer.write`
}

type Dialer struct{ mu sync.Mutex }

func (d *Dialer) Dial(conn net.Conn) *Conn {
	d.mu.Lock()
	defer d.mu.Unlock()
	return NewConn(conn)
}
