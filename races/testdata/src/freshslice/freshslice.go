// Command freshslice: each trigger parses its expression into a new
// slice of new fields (go-quartz's buildCronField, each part parsed into
// a new cronField) and adjusts them before a scheduler's goroutine reads
// them. Each call has its own slice and its own fields, so what a call
// writes into them before handing the trigger over is not reported.
// Fields looked up in a table every trigger shares are, where a call
// adjusts them in place.
package main

import (
	"strings"
	"sync"
	"time"
)

type field struct {
	values []int
	n      int
}

func newField(values []int) *field { return &field{values: values} }

func parseField(s string) (*field, error) {
	if s == "*" {
		return newField([]int{}), nil
	}
	return newField([]int{len(s)}), nil
}

// build parses each token into a new field of a new slice.
func build(tokens []string) ([]*field, error) {
	fields := make([]*field, 2)
	var err error
	if fields[0], err = parseField(tokens[0]); err != nil {
		return nil, err
	}
	if fields[1], err = parseField(tokens[1]); err != nil {
		return nil, err
	}
	fields[1].add(-1)
	return fields, nil
}

func parse(expr string) ([]*field, error) {
	return build(strings.Split(expr, " "))
}

func (f *field) add(d int) {
	for i := range f.values {
		f.values[i] += d
	}
}

type Trigger struct{ fields []*field }

func NewTrigger(expr string) (*Trigger, error) {
	fields, err := parse(expr)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if len(f.values) == 0 {
			f.values = []int{0}
		}
	}
	return &Trigger{fields: fields}, nil
}

// shared is one table of fields every caller of lookup gets.
var shared = []*field{newField([]int{1}), newField([]int{2})}

func lookup(string) []*field { return shared }

// NewPreset takes the shared fields and sets their count in place.
func NewPreset(name string) *Trigger {
	fields := lookup(name)
	fields[0].n = len(name) // want `field.n written in NewPreset .* races with its (read|write) in`
	return &Trigger{fields: fields}
}

type Sched struct {
	mu sync.Mutex
	q  []*Trigger
}

func (s *Sched) Schedule(t *Trigger) {
	s.mu.Lock()
	s.q = append(s.q, t)
	s.mu.Unlock()
}

func (s *Sched) run() {
	for {
		s.mu.Lock()
		for _, t := range s.q {
			_ = len(t.fields[0].values) + t.fields[0].n
		}
		s.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

func main() {
	s := &Sched{}
	go s.run()
	for _, e := range []string{"a b", "* c"} {
		go func() {
			t, _ := NewTrigger(e)
			s.Schedule(t)
			s.Schedule(NewPreset(e))
		}()
	}
	time.Sleep(time.Second)
}
