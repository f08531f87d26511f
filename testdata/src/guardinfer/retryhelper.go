package guardinfer

import (
	"errors"
	"sync"
)

// A retry loop kept in a local closure, handed the step to run (sarama's
// transactionManager.endTxn: exec := func(run func() (bool, error), err
// error) error { ... run() ... }; return exec(func() ... {
// t.completeTransaction() ... })). exec only calls run, in place, so the
// step runs with the locks endTxn's caller holds, and completeTransaction,
// reached from finish under t.mu and from that step, needs no lock of its
// own. In endLater the local helper keeps the step for later: it may run
// with no lock, and what it calls is reported.
type Txn struct {
	mu      sync.Mutex
	offsets map[string]int
	parts   map[string]int
	later   func() error
}

func (t *Txn) complete() {
	t.offsets = map[string]int{}
}

func (t *Txn) completeParts() {
	t.parts = map[string]int{} // want `t.parts is accessed with t.mu held at`
}

func (t *Txn) end() error {
	exec := func(run func() error) error {
		for range 3 {
			if err := run(); err == nil {
				return nil
			}
		}
		return errors.New("gave up")
	}
	return exec(func() error {
		t.complete()
		return nil
	})
}

func (t *Txn) endLater() {
	keep := func(run func() error) {
		t.later = run
	}
	keep(func() error {
		t.completeParts()
		return nil
	})
}

func (t *Txn) Finish(commit bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !commit {
		t.complete()
		t.completeParts()
		return nil
	}
	t.endLater()
	return t.end()
}

func (t *Txn) Add(k string, v int) {
	t.mu.Lock()
	t.offsets[k] = v
	t.parts[k]++
	t.mu.Unlock()
}

func (t *Txn) Drop(k string) {
	t.mu.Lock()
	delete(t.offsets, k)
	delete(t.parts, k)
	t.mu.Unlock()
}

func (t *Txn) Get(k string) (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.offsets[k], t.parts[k]
}

func (t *Txn) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.offsets) + len(t.parts)
}

func (t *Txn) Reset() {
	t.mu.Lock()
	t.offsets = map[string]int{}
	t.parts = map[string]int{}
	t.mu.Unlock()
}

func (t *Txn) Has(k string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, a := t.offsets[k]
	_, b := t.parts[k]
	return a || b
}

func (t *Txn) Keys() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for k := range t.offsets {
		out = append(out, k)
	}
	for k := range t.parts {
		out = append(out, k)
	}
	return out
}

func (t *Txn) Bump(k string) {
	t.mu.Lock()
	t.offsets[k]++
	t.parts[k]++
	t.mu.Unlock()
}

func (t *Txn) Total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, v := range t.offsets {
		n += v
	}
	for _, v := range t.parts {
		n += v
	}
	return n
}
