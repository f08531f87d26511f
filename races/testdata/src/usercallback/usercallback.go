// Package usercallback: a library hands an object it is still building
// to a callback its user supplies (sentry-go's TracesSampler, called
// from StartSpan with the new span). No function in the program is ever
// that callback, so the call graph has no callee for the call: the
// analysis takes such a call as keeping none of what it is handed, and
// the set-up after it is still the maker's. A callback the program does
// supply, and that publishes what it is handed, still publishes it.
package usercallback

import "sync"

type Span struct {
	Name    string
	Sampled bool
	Rate    float64
}

// SamplingContext is what a sampler sees.
type SamplingContext struct {
	Span *Span
}

// Sampler decides whether a span is kept.
type Sampler interface {
	Sample(SamplingContext) float64
}

// SamplerFunc is a function as a Sampler.
type SamplerFunc func(SamplingContext) float64

func (f SamplerFunc) Sample(c SamplingContext) float64 { return f(c) }

type Options struct {
	Sampler  Sampler
	OnCreate func(*Span)
}

type Recorder struct {
	mu    sync.Mutex
	opts  Options
	spans []*Span
}

func NewRecorder(o Options) *Recorder { return &Recorder{opts: o} }

// Start builds a span, asks the user's sampler and create hook about
// it, and only then records it: until then it is Start's alone.
func (r *Recorder) Start(name string) *Span {
	s := &Span{Name: name}
	r.mu.Lock()
	o := r.opts
	r.mu.Unlock()
	if o.OnCreate != nil {
		o.OnCreate(s)
	}
	if o.Sampler != nil {
		s.Rate = o.Sampler.Sample(SamplingContext{Span: s})
	}
	s.Sampled = s.Rate > 0.5
	r.mu.Lock()
	r.spans = append(r.spans, s)
	r.mu.Unlock()
	return s
}

// Total reads every recorded span.
func (r *Recorder) Total() (n float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.Sampled {
			n += s.Rate
		}
	}
	return n
}

var kept = &Recorder{}

// Keep is a hook the library itself supplies: it records the span it is
// handed where Total reads it.
func Keep(s *Span) {
	kept.mu.Lock()
	kept.spans = append(kept.spans, s)
	kept.mu.Unlock()
}

// Tracker hands each span it begins to Keep before its set-up is done.
type Tracker struct {
	mu   sync.Mutex
	hook func(*Span)
	n    int
}

func NewTracker() *Tracker { return &Tracker{hook: Keep} }

func (t *Tracker) Begin(name string) *Span {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
	s := &Span{Name: name}
	t.hook(s)
	s.Sampled = true // want `Span.Sampled written in Tracker.Begin .* races with its read in Recorder.Total`
	return s
}
