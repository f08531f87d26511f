package ctasections

import (
	"errors"
	"sync"
)

// The accept-queue shape: a helper deep in the handshake checks whether
// the completed queue is full (through a method of the queue type that
// looks at done and capacity only); after a failed handshake the caller
// removes itself from the pending set. The pending set was never read.
type acceptQ struct {
	done     []int
	pending  map[int]bool
	capacity int
}

func (a *acceptQ) isFull() bool { return len(a.done) >= a.capacity }

func (a *acceptQ) hasPending(k int) bool { return a.pending[k] }

// describe hands the whole queue on: every part counts.
func (a *acceptQ) describe() string { return show(a) }

func show(a *acceptQ) string { return "" }

type Lst struct {
	mu sync.Mutex
	aq acceptQ //guard:by mu
}

func (l *Lst) queueFull() bool { // want queueFull:`fieldops\(reads l\.aq\.done, reads l\.aq\.capacity\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.aq.isFull()
}

func (l *Lst) isPending(k int) bool { // want isPending:`fieldops\(reads l\.aq\.pending\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.aq.hasPending(k)
}

func (l *Lst) String() string { // want String:`fieldops\(reads l\.aq\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.aq.describe()
}

func (l *Lst) dropPending(k int) { // want dropPending:`fieldops\(writes l\.aq\.pending\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.aq.pending, k)
}

func (l *Lst) addPending(k int) { // want addPending:`fieldops\(writes l\.aq\.pending\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	l.aq.pending[k] = true
}

type Conn struct {
	ln *Lst
	k  int
}

var errReset = errors.New("reset")

func (c *Conn) process(seg int) error { // want process:`fieldops\(reads-internally c\.ln\.aq\.done, reads-internally c\.ln\.aq\.capacity\)`
	if c.ln.queueFull() {
		return nil
	}
	if seg < 0 {
		return errReset
	}
	return nil
}

// The handshake's error decides, and the pending set is written: its
// check read other parts of the queue.
func (c *Conn) Handle(seg int) { // want Handle:`fieldops\(reads-internally c\.ln\.aq\.done, reads-internally c\.ln\.aq\.capacity, writes c\.ln\.aq\.pending\)`
	if err := c.process(seg); err != nil {
		c.ln.mu.Lock()
		delete(c.ln.aq.pending, c.k)
		c.ln.mu.Unlock()
		c.ln.dropPending(c.k)
	}
}

// Checking the pending set and then adding to it is a get-then-insert.
func (c *Conn) Register() { // want Register:`fieldops\(reads-internally c\.ln\.aq\.pending, decides-writes c\.ln\.aq\.pending\)`
	if !c.ln.isPending(c.k) {
		c.ln.addPending(c.k) // want `check-then-act: c.ln.aq.pending was read at line 92 \(in c.ln.isPending\) and the lock released`
	}
}

// A method that hands the whole queue on reads all of it.
func (c *Conn) RegisterIfEmpty() { // want RegisterIfEmpty:`fieldops\(reads-internally c\.ln\.aq, decides-writes c\.ln\.aq\.pending\)`
	if c.ln.String() == "" {
		c.ln.addPending(c.k) // want `check-then-act: c.ln.aq was read at line 99 \(in c.ln.String\) and the lock released`
	}
}

// The dispatcher shape: dequeue takes an item off the list in its own
// section; the loop re-queues it, and enqueue re-checks, under the queue
// lock, that the item is not queued already.
type Item struct {
	next   *Item
	mu     sync.Mutex
	queued bool //guard:by mu
	hits   int  //guard:by mu
	more   bool
}

type itemList struct{ head, tail *Item }

func (l *itemList) Front() *Item { return l.head }

func (l *itemList) PushBack(it *Item) {
	if l.tail == nil {
		l.head = it
	} else {
		l.tail.next = it
	}
	l.tail = it
}

func (l *itemList) Remove(it *Item) {
	l.head = it.next
	if l.head == nil {
		l.tail = nil
	}
	it.next = nil
}

type WorkQ struct {
	mu   sync.Mutex
	list itemList //guard:by mu
}

func (q *WorkQ) enqueue(it *Item) { // want enqueue:`fieldops\(reads-internally it\.queued, writes q\.list\.tail, writes q\.list\.head, rechecks-writes it\.queued\)`
	q.mu.Lock()
	defer q.mu.Unlock()
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.queued {
		return
	}
	q.list.PushBack(it)
	it.queued = true
}

func (q *WorkQ) dequeue() *Item { // want dequeue:`fieldops\(reads q\.list\.head, rechecks-writes q\.list\.head, writes q\.list\.tail\)`
	q.mu.Lock()
	if it := q.list.Front(); it != nil {
		q.list.Remove(it)
		it.mu.Lock()
		it.queued = false
		it.mu.Unlock()
		q.mu.Unlock()
		return it
	}
	q.mu.Unlock()
	return nil
}

// pushCounted reads the item's counter under the queue lock, but the
// push does not depend on it: no re-check.
func (q *WorkQ) pushCounted(it *Item) int { // want pushCounted:`fieldops\(reads it\.hits, writes q\.list\.tail, writes q\.list\.head\)`
	q.mu.Lock()
	defer q.mu.Unlock()
	it.mu.Lock()
	n := it.hits
	it.mu.Unlock()
	q.list.PushBack(it)
	return n
}

func (q *WorkQ) Run() { // want Run:`fieldops\(reads-internally q\.list\.head, writes q\.list\.head, writes q\.list\.tail\)`
	for {
		it := q.dequeue()
		if it == nil {
			break
		}
		if it.more {
			q.enqueue(it)
		}
	}
}

func (q *WorkQ) RunUnchecked() { // want RunUnchecked:`fieldops\(reads-internally q\.list\.head, writes q\.list\.head, writes q\.list\.tail\)`
	for {
		it := q.dequeue()
		if it == nil {
			break
		}
		if it.more {
			// Not a check-then-act over q.list: dequeue took the item out
			// of the list in its own section (read and removed), so the
			// list state it read is not stale. That pushCounted re-queues
			// without looking at it.queued is a different bug.
			q.pushCounted(it) // gap: `pushCounted re-queues without checking it.queued`
		}
	}
}

// A lost update: the value written is computed from a read made in an
// earlier critical section.
type Tally struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (t *Tally) get() int { // want get:`fieldops\(reads t\.n\)`
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

func (t *Tally) set(v int) { // want set:`fieldops\(writes t\.n\)`
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n = v
}

func (t *Tally) Incr() { // want Incr:`fieldops\(reads-internally t\.n, writes t\.n\)`
	t.mu.Lock()
	v := t.n
	t.mu.Unlock()
	t.mu.Lock()
	t.n = v + 1 // want `check-then-act: t.n was read at line 228 and the lock released`
	t.mu.Unlock()
}

func (t *Tally) IncrVia() { // want IncrVia:`fieldops\(reads-internally t\.n, writes t\.n\)`
	v := t.get()
	t.set(v + 1) // want `check-then-act: t.n was read at line 236 \(in t.get\) and the lock released`
}

// Fixed: one critical section.
func (t *Tally) IncrFixed() { // want IncrFixed:`fieldops\(writes t\.n\)`
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n++
}

// A write that does not use the value read.
func (t *Tally) Reset() int { // want Reset:`fieldops\(reads t\.n, writes t\.n\)`
	old := t.get()
	t.set(0)
	return old
}

// An outer lock held across both inner sections makes them one when every
// writer must hold it: setInfo requires b.mu, so two callers of Rebind
// cannot interleave between the read and the write.
type Binding struct {
	mu     sync.Mutex
	infoMu sync.Mutex
	port   int //guard:by infoMu
}

func (b *Binding) info() int { // want info:`fieldops\(reads b\.port\)`
	b.infoMu.Lock()
	defer b.infoMu.Unlock()
	return b.port
}

//guard:holds b.mu
func (b *Binding) setInfo(p int) { // want setInfo:`fieldops\(writes b\.port\)`
	b.infoMu.Lock()
	defer b.infoMu.Unlock()
	b.port = p
}

// setPort does not require b.mu: its callers need not hold it, and
// SetPort does not.
func (b *Binding) setPort(p int) { // want setPort:`fieldops\(writes b\.port\)`
	b.infoMu.Lock()
	defer b.infoMu.Unlock()
	b.port = p
}

func (b *Binding) SetPort(p int) { // want SetPort:`fieldops\(writes b\.port\)`
	b.setPort(p)
}

func (b *Binding) Rebind() { // want Rebind:`fieldops\(reads-internally b\.port, writes b\.port\)`
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.info()
	b.setInfo(p + 1)
}

// b.mu, the binding's own lock, is held for writing across both: two
// callers of RebindAny cannot both act on the old port, so this is not
// reported. SetPort writes the port without b.mu; that is another bug,
// which //guard:by on port naming b.mu would report.
func (b *Binding) RebindAny() { // want RebindAny:`fieldops\(reads-internally b\.port, writes b\.port\)`
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.info()
	b.setPort(p + 1)
}

// The child's lock is held across, and the helper requires it, but the
// queue written belongs to the listener: other children write it under
// their own locks.
type Child struct {
	mu sync.Mutex
	ln *Lst
	k  int
}

//guard:holds ch.mu
func (ch *Child) joinLocked() { // want joinLocked:`fieldops\(writes ch\.ln\.aq\.pending\)`
	ch.ln.addPending(ch.k)
}

func (ch *Child) Join() { // want Join:`fieldops\(reads-internally ch\.ln\.aq\.pending, decides-writes ch\.ln\.aq\.pending\)`
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if !ch.ln.isPending(ch.k) {
		ch.joinLocked() // want `check-then-act: ch.ln.aq.pending was read at line 323 \(in ch.ln.isPending\) and the lock released`
	}
}
