package guardinfer

import "sync"

// Set-up reached through a chain of calls on an object not yet shared: a
// constructor held in a function variable calls c.setup() on the
// connection it just made, and setup calls c.queue.Init() on a part of it
// (quic-go's newConnection, preSetup and receivedPacketQueue.Init). Init
// is exported, but its type is the package's own and never leaves it, so
// its callers are all in view and its bare writes come before anything
// else runs. pktRing is the twin: the exported Reset also calls its Init
// on a connection in use, and the bare write there is reported.

type PktConn struct {
	queue pktQueue
	ring  pktRing
	done  chan struct{}
}

type pktQueue struct {
	mu   sync.Mutex
	main []int
	side []int
}

func (q *pktQueue) Init(n int) {
	q.main = make([]int, 0, n)
	q.side = nil
}

func (q *pktQueue) Push(p int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.main = append(q.main, p)
}

func (q *pktQueue) Pop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.side) > 0 {
		p := q.side[0]
		q.side = q.side[1:]
		return p, true
	}
	if len(q.main) == 0 {
		return 0, false
	}
	p := q.main[0]
	q.main = q.main[1:]
	return p, true
}

func (q *pktQueue) Migrate() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.side = append(q.side, q.main...)
	q.main = q.main[:0]
}

func (q *pktQueue) Clear() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.main, q.side = nil, nil
}

type pktRing struct {
	mu  sync.Mutex
	buf []int
}

func (q *pktRing) Init(n int) {
	q.buf = make([]int, n) // want `q.buf is accessed with q.mu held at \d+ of \d+ sites`
}

func (q *pktRing) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Cap() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Grow() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Trim() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Peek() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Last() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) First() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

func (q *pktRing) Mark() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = q.buf[:len(q.buf)]
	return len(q.buf)
}

var newPktConn = func() *PktConn {
	c := &PktConn{done: make(chan struct{})}
	c.setup()
	return c
}

func (c *PktConn) setup() { c.queue.Init(8); c.ring.Init(8) }

func (c *PktConn) run() {
	for {
		select {
		case <-c.done:
			return
		default:
		}
		c.queue.Pop()
	}
}

func (c *PktConn) Start()        { go c.run() }
func DialPkt() *PktConn          { return newPktConn() }
func (c *PktConn) Deliver(p int) { c.queue.Push(p) }
func (c *PktConn) Migrate()      { c.queue.Migrate() }
func (c *PktConn) Close()        { c.queue.Clear() }
func (c *PktConn) Reset()        { c.ring.Init(16) }
func (c *PktConn) RingStats() int {
	r := &c.ring
	return r.Len() + r.Cap() + r.Grow() + r.Trim() + r.Peek() + r.Size() + r.Last() + r.First() + r.Mark()
}
