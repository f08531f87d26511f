// Package ctxspan: a span whose own context holds it (sentry-go's
// StartSpan: span = Span{ctx: context.WithValue(ctx, key, &span)}).
// context.WithValue, a function of a dependency whose body is not built,
// keeps its value only in the context it returns, and that context goes
// back into the span: the span is not published there. Nor is it where
// an option's helper hands hex.Decode the bytes of the span's ID alone
// (ContinueFrom). So StartSpan's set-up and the options it applies, all before the recorder publishes
// the span, are not reported. The write after the recorder has it is:
// Dump, from another goroutine, reads every recorded span.
package ctxspan

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
)

type key struct{}

type Span struct {
	mu      sync.Mutex
	ctx     context.Context
	SpanID  [8]byte
	Op      string
	TraceID int
	Sampled bool
}

// Option sets up a span StartSpan is building.
type Option func(*Span)

func WithOp(op string) Option { return func(s *Span) { s.Op = op } }

// ContinueFrom takes the parent's IDs from a header: the helper it runs
// hands hex.Decode the ID's bytes alone, so the option shares nothing of
// the span it is applied to, and StartSpan's set-up after it is still
// the span's maker's.
func ContinueFrom(header []byte) Option {
	return func(s *Span) { s.updateFromHeader(header) }
}

func (s *Span) updateFromHeader(h []byte) {
	if _, err := hex.Decode(s.SpanID[:], h); err == nil {
		s.Sampled = true
	}
}

type Recorder struct {
	mu    sync.Mutex
	spans []*Span
	all   list.List
}

var rec = &Recorder{}

func (r *Recorder) record(s *Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, s)
}

func StartSpan(ctx context.Context, opts ...Option) *Span {
	var span Span
	span = Span{ctx: context.WithValue(ctx, key{}, &span)}
	// rand.Read is handed the ID's bytes alone: the span's other fields
	// stay the maker's.
	if _, err := rand.Read(span.SpanID[:]); err != nil {
		panic(err)
	}
	span.TraceID = 7
	for _, o := range opts {
		o(&span)
	}
	span.TraceID++
	rec.record(&span)
	span.Sampled = true // want `Span.Sampled written in StartSpan .* races with its read in Recorder.Dump`
	return &span
}

func (s *Span) Context() context.Context { return s.ctx }

func (s *Span) StartChild(op string) *Span { return StartSpan(s.Context(), WithOp(op)) }

func (s *Span) Continue(header []byte) *Span { return StartSpan(s.Context(), ContinueFrom(header)) }

func (s *Span) Trace() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.TraceID + len(s.Op)
}

// Dump reads every recorded span.
func (r *Recorder) Dump() (n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		n += s.TraceID + len(s.Op)
		if s.Sampled {
			n++
		}
	}
	return n
}

// StartListed hands its span to a list Count reads before it sets the
// span up: (*list.List).PushBack keeps its value in the list, not only in
// the element it returns, so the write after it is reported.
func (r *Recorder) StartListed() *Span {
	s := &Span{}
	r.mu.Lock()
	r.all.PushBack(s)
	r.mu.Unlock()
	s.TraceID = 9 // want `Span.TraceID written in Recorder.StartListed .* races with its read in Span.Trace`
	return s
}

func (r *Recorder) Count() (n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for e := r.all.Front(); e != nil; e = e.Next() {
		n += e.Value.(*Span).TraceID
	}
	return n
}

// NewTrace hands its span's trace ID alone to a channel Reader drains:
// the span is not published, so the write of Op after is not reported.
// (Reader's write through the pointer is not seen as one of
// Span.TraceID, and neither is the race between it and NewTrace's write
// of the ID: docs/rules/races.md lists this among what the mode cannot
// see.)
func (r *Recorder) NewTrace(ids chan<- *int) *Span {
	s := &Span{}
	ids <- &s.TraceID
	s.TraceID = 3
	s.Op = "new"
	return s
}

func (r *Recorder) Reader(ids <-chan *int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range ids {
		*id = 0
	}
}

// Spans is the recorder's root: its Dump runs beside any StartChild.
func Spans() *Recorder { return rec }
