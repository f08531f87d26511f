// Package frag has constructors that keep what they are given only in the
// new object they return: passing a fresh object to them keeps it fresh
// when the result is stored back in it.
package frag

import "sync"

// Handler is called back later.
type Handler interface{ Timeout() }

// Frag keeps its handler and a job.
type Frag struct {
	mu  sync.Mutex
	h   Handler
	job *Job
	n   int //guard:by mu
}

// Job calls fn.
type Job struct{ fn func() }

// NewJob keeps fn only in the new Job.
func NewJob(fn func()) *Job { return &Job{fn: fn} }

// New keeps h only in the new Frag; the Frag's own method value goes into
// the Job it keeps.
func New(n int, h Handler) *Frag {
	f := &Frag{h: h, n: n}
	f.job = NewJob(f.run)
	return f
}

func (f *Frag) run() {}

var registered []Handler

// Register publishes h.
func Register(h Handler) *Frag {
	registered = append(registered, h)
	return &Frag{h: h}
}
