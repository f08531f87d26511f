package sessionref

import (
	"bytes"
	"io"
	"sync"
	"unicode/utf8"
)

// ring is a bounded scrollback buffer. It keeps the last max bytes or
// fewer: it drops the oldest bytes only up to a point where a terminal
// could start reading, so a replay never begins inside a UTF-8 sequence or
// inside an escape sequence (a cut "\x1b[31m" would print "31m"). It is not
// safe for concurrent use; output guards it with output.mu.
type ring struct {
	max int
	buf []byte // the scrollback is buf[head:]; buf[:head] is dropped and reclaimed lazily
	// head is where the kept bytes start, and headState the escape parser's
	// state there. head is normally a safe point (escGround and a rune
	// start); it is not only if a single escape sequence or string outgrew
	// max, and then snapshot skips to the next safe point.
	head      int
	headState escState
}

func (r *ring) write(p []byte) {
	r.buf = append(r.buf, p...)
	excess := len(r.buf) - r.head - r.max
	if excess <= 0 {
		return
	}
	// Drop at least excess bytes, up to the first safe point after them.
	// With no safe point in the buffer, cut exactly (memory stays bounded)
	// and remember the parser state there.
	cut := r.head + excess
	st, i := r.headState, r.head
	for ; i < cut; i++ {
		st = st.next(r.buf[i])
	}
	atCut := st
	for i < len(r.buf) && (st != escGround || !utf8.RuneStart(r.buf[i])) {
		st = st.next(r.buf[i])
		i++
	}
	if st != escGround { // no safe point up to the end
		i, st = cut, atCut
	}
	r.head, r.headState = i, st
	if r.head >= r.max { // reclaim: buf never holds more than 2*max plus one write
		n := copy(r.buf, r.buf[r.head:])
		r.buf = r.buf[:n]
		r.head = 0
	}
}

func (r *ring) snapshot() []byte {
	return bytes.Clone(r.buf[r.safeStart():])
}

// safeStart returns the first safe point at or after head (len(buf) if
// there is none).
func (r *ring) safeStart() int {
	st := r.headState
	for i := r.head; i < len(r.buf); i++ {
		if st == escGround && utf8.RuneStart(r.buf[i]) {
			return i
		}
		st = st.next(r.buf[i])
	}
	return len(r.buf)
}

// escState is the state of a minimal ECMA-48 parser: enough to tell
// whether a byte is inside an escape sequence (ESC followed by
// intermediates and a final byte), a control sequence (ESC [ parameters,
// intermediates, final byte) or a control string (OSC, DCS, SOS, PM, APC,
// ended by BEL or ESC \).
type escState uint8

const (
	escGround    escState = iota // not in a sequence
	escEscape                    // after ESC
	escCSI                       // in ESC [ ...
	escString                    // in ESC ] ..., ESC P ... and other strings
	escStringEsc                 // ESC inside a string: ESC \ ends it
)

func (st escState) next(b byte) escState {
	const (
		esc = 0x1b
		can = 0x18
		sub = 0x1a
		bel = 0x07
	)
	if b == can || b == sub { // cancel any sequence
		return escGround
	}
	switch st {
	case escGround:
		if b == esc {
			return escEscape
		}
		return escGround
	case escEscape:
		switch {
		case b == '[':
			return escCSI
		case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
			return escString
		case b == esc:
			return escEscape
		case b >= 0x20 && b <= 0x2f: // intermediate
			return escEscape
		case b < 0x20: // C0 control inside a sequence: executed, sequence goes on
			return escEscape
		}
		return escGround // final byte (or DEL/8-bit: give up on the sequence)
	case escCSI:
		switch {
		case b == esc:
			return escEscape
		case b >= 0x40 && b <= 0x7e: // final byte
			return escGround
		case b < 0x40: // parameters, intermediates, C0 controls
			return escCSI
		}
		return escGround // DEL or 8-bit: malformed, give up
	case escString:
		switch b {
		case bel:
			return escGround
		case esc:
			return escStringEsc
		}
		return escString
	case escStringEsc:
		if b == '\\' {
			return escGround
		}
		return escEscape.next(b) // the ESC ended the string and starts a sequence
	}
	return escGround
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
