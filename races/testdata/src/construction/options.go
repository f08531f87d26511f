package construction

import "sync"

// A constructor hands its new descriptor to functional options before
// it finishes setting it up (prometheus' NewDesc): each option the
// program defines only sets a field, so the descriptor is still nobody
// else's when the constructor writes its error.

type Desc struct {
	name string
	unit string
	err  error
}

type DescOpt func(*Desc)

func WithUnit(u string) DescOpt { return func(d *Desc) { d.unit = u } }

func NewDesc(name string, opts ...DescOpt) *Desc {
	d := &Desc{name: name}
	for _, opt := range opts {
		opt(d)
	}
	if name == "" {
		d.err = errEmpty
	}
	return d
}

type descError struct{}

func (descError) Error() string { return "empty name" }

var errEmpty error = descError{}

// Registry is used from many goroutines: its methods lock its mutex.
type Registry struct {
	mu    sync.Mutex
	descs []*Desc
}

// Describe makes a descriptor for its caller, who may Register it.
func (r *Registry) Describe(name string) *Desc {
	return NewDesc(name, WithUnit("s"))
}

func (r *Registry) Register(d *Desc) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d.err != nil {
		return d.err
	}
	r.descs = append(r.descs, d)
	return nil
}
