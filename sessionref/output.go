package sessionref

import (
	"bytes"
	"io"
	"sync"
)

// ring is a bounded scrollback buffer. It grows up to max bytes and then
// overwrites the oldest bytes. It is not safe for concurrent use; output
// guards it with output.mu.
type ring struct {
	max   int
	buf   []byte
	start int // index of the oldest byte once buf is full
}

func (r *ring) write(p []byte) {
	if room := r.max - len(r.buf); room > 0 {
		k := min(room, len(p))
		r.buf = append(r.buf, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return
	}
	// Full: overwrite the oldest bytes.
	c := len(r.buf)
	if len(p) >= c {
		copy(r.buf, p[len(p)-c:])
		r.start = 0
		return
	}
	k := copy(r.buf[r.start:], p)
	copy(r.buf, p[k:])
	r.start = (r.start + len(p)) % c
}

func (r *ring) snapshot() []byte {
	out := make([]byte, len(r.buf))
	k := copy(out, r.buf[r.start:])
	copy(out[k:], r.buf[:r.start])
	return out
}

// output is a session's output fan-out: the scrollback ring plus the set of
// live subscribers. One writer (the session's pump goroutine) calls write;
// any goroutine may call snapshot, subscribe or remove.
//
// Pattern 5: write appends to the ring and copies the subscriber set under
// mu, then offers the chunk to each subscriber after releasing mu. An offer
// never blocks (see Subscription.offer), so a stalled subscriber can neither
// stall the pump nor hold mu.
type output struct {
	subBuf int // chunks a subscriber may queue before it is disconnected

	mu sync.Mutex //guard:noblock
	//guard:by mu
	ring ring
	//guard:by mu
	subs map[*Subscription]struct{}
	//guard:by mu
	ended bool // the pump has stopped; no more chunks will come
}

func newOutput(scrollback, subBuf int) *output {
	return &output{
		subBuf: subBuf,
		ring:   ring{max: scrollback},
		subs:   make(map[*Subscription]struct{}),
	}
}

// write records p in the scrollback and hands a private copy to every
// subscriber. Only the pump goroutine calls write.
func (o *output) write(p []byte) {
	chunk := bytes.Clone(p) // the pump reuses p; subscribers share chunk read-only
	subs := o.appendAndListSubs(chunk)
	for _, sub := range subs {
		if live, dropped := sub.offer(chunk); !live {
			o.remove(sub)
			if dropped && sub.onDrop != nil {
				sub.onDrop() // outside every lock
			}
		}
	}
}

// appendAndListSubs appends chunk to the ring and returns a copy of the
// subscriber set, so the caller can send outside mu.
func (o *output) appendAndListSubs(chunk []byte) []*Subscription {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ring.write(chunk)
	subs := make([]*Subscription, 0, len(o.subs))
	for sub := range o.subs {
		subs = append(subs, sub)
	}
	return subs
}

// finish marks the end of output and ends every live subscription.
func (o *output) finish() {
	for _, sub := range o.endAndTakeSubs() {
		sub.end()
	}
}

func (o *output) endAndTakeSubs() []*Subscription {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ended = true
	subs := make([]*Subscription, 0, len(o.subs))
	for sub := range o.subs {
		subs = append(subs, sub)
	}
	clear(o.subs)
	return subs
}

func (o *output) snapshot() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ring.snapshot()
}

func (o *output) remove(sub *Subscription) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.subs, sub)
}

// subscribe registers a new subscription whose first chunk is the current
// scrollback. Taking the snapshot and registering under the same critical
// section means no byte is lost or duplicated between backlog and live data.
// onDrop, if not nil, is called once if the subscriber is disconnected for
// falling behind.
func (o *output) subscribe(onDrop func()) *Subscription {
	o.mu.Lock()
	defer o.mu.Unlock()
	backlog := o.ring.snapshot()
	// One extra slot so the backlog never counts against the live buffer.
	sub := &Subscription{out: o, onDrop: onDrop, ch: make(chan []byte, o.subBuf+1), closed: o.ended}
	if len(backlog) > 0 {
		select {
		case sub.ch <- backlog: // fresh channel with a free slot: never blocks
		default:
		}
	}
	if o.ended {
		close(sub.ch) // nothing will ever be sent: end it now
		return sub
	}
	o.subs[sub] = struct{}{}
	return sub
}

// Subscription is a live view of a session's output.
//
// The first chunk received is the scrollback at the time of Subscribe (if any),
// followed by every later chunk of output, in order, with nothing lost or
// duplicated. Chunks are shared between subscribers and must not be modified.
//
// Back-pressure: each subscription queues up to Options.SubscriberBuffer
// chunks. A subscriber that falls further behind is disconnected rather than
// allowed to stall the session or silently lose bytes: its channel is closed
// and Err reports ErrSlowSubscriber. A disconnected subscriber can recover by
// subscribing again (the new backlog is the current scrollback). The channel
// is also closed, with Err nil, when the output ends (the child exited or the
// session was deleted) or after Close.
//
// Use either C or Read on one Subscription, not both.
type Subscription struct {
	out    *output
	onDrop func()      // set at construction, never reassigned
	ch     chan []byte // set at construction, never reassigned

	mu sync.Mutex //guard:noblock
	//guard:by mu
	closed bool // ch has been closed; nothing may be sent on it
	//guard:by mu
	err error

	// rest is the unread tail of the chunk Read is consuming. Read is the
	// only reader of the stream, so it needs no lock.
	//guard:only Read
	rest []byte
}

// C returns the channel on which output chunks arrive.
func (sub *Subscription) C() <-chan []byte { return sub.ch }

// Err reports why C was closed: ErrSlowSubscriber if the subscriber fell
// behind, otherwise nil.
func (sub *Subscription) Err() error {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.err
}

// Close ends the subscription. C is closed after any chunks still queued.
// Close is idempotent.
func (sub *Subscription) Close() error {
	sub.closeChan(nil)
	sub.out.remove(sub)
	return nil
}

// Read implements io.Reader over the stream. It returns io.EOF at the end of
// output and ErrSlowSubscriber if the subscriber was disconnected.
func (sub *Subscription) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(sub.rest) == 0 {
		chunk, ok := <-sub.ch
		if !ok {
			if err := sub.Err(); err != nil {
				return 0, err
			}
			return 0, io.EOF
		}
		sub.rest = chunk
	}
	n := copy(p, sub.rest)
	sub.rest = sub.rest[n:]
	return n, nil
}

// offer hands chunk to the subscriber without blocking. If the buffer is
// full the subscriber is disconnected. It reports whether the subscription
// is still live, and whether this offer disconnected it. mu is held only
// across a select with a default case.
func (sub *Subscription) offer(chunk []byte) (live, dropped bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return false, false
	}
	select {
	case sub.ch <- chunk:
		return true, false
	default:
		sub.closed = true
		sub.err = ErrSlowSubscriber
		close(sub.ch)
		return false, true
	}
}

// end closes the subscription because the output ended.
func (sub *Subscription) end() { sub.closeChan(nil) }

// closeChan closes ch exactly once. Sends and the close both happen under
// mu, so a send can never hit a closed channel.
func (sub *Subscription) closeChan(err error) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return
	}
	sub.closed = true
	sub.err = err
	close(sub.ch)
}
