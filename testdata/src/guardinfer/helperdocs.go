package guardinfer

import (
	"math/rand"
	"sync"
	"sync/atomic"
)

// Code that says how its lock is held without naming the lock field, or
// holds it through shapes the engine reads: a doc "Lock should be held."
// (nats-server's style), a local lock helper taken on a flag, an address
// kept in a local and used only atomically, and a closure run by
// rand.Shuffle on a new object. Each has a reported twin.

type Ledger struct {
	mu      sync.Mutex
	cfgMu   sync.Mutex
	entries map[string]int // guarded by mu
	total   int
	cfg     string
	used    int64
	max     int64
	order   []string          // guarded by mu
	notes   map[string]string // guarded by mu
	marks   map[string]bool   // guarded by mu
}

func (l *Ledger) Put(k string, v int) {
	l.mu.Lock()
	l.entries[k] = v
	l.total += v
	l.notes[k] = "put"
	l.marks[k] = true
	l.mu.Unlock()
}

func (l *Ledger) Drop(k string) {
	l.mu.Lock()
	l.total -= l.entries[k]
	delete(l.entries, k)
	l.mu.Unlock()
}

func (l *Ledger) Reset() {
	l.mu.Lock()
	l.entries = map[string]int{}
	l.total = 0
	l.mu.Unlock()
}

func (l *Ledger) Merge(o map[string]int) {
	l.mu.Lock()
	for k, v := range o {
		l.entries[k] += v
		l.total += v
	}
	l.mu.Unlock()
}

func (l *Ledger) Sum() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total + len(l.entries)
}

func (l *Ledger) Keys() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ks []string
	for k := range l.entries {
		ks = append(ks, k)
	}
	return ks
}

func (l *Ledger) Has(k string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.entries[k]
	return ok
}

func (l *Ledger) Total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

func (l *Ledger) Bump() {
	l.mu.Lock()
	l.total++
	l.mu.Unlock()
}

func (l *Ledger) Halve() {
	l.mu.Lock()
	l.total /= 2
	l.mu.Unlock()
}

func (l *Ledger) Clear() {
	l.mu.Lock()
	clear(l.entries)
	l.total = 0
	l.mu.Unlock()
}

// Its doc says the lock is held, without naming it: explained.
// Lock should be held.
func (l *Ledger) DropAll() {
	l.entries = nil
}

// ledger lock is held on entry: the word before "lock" is the receiver's
// type name.
func (l *Ledger) CountNoted() int { return len(l.entries) }

// Both locks should be held.
func (l *Ledger) MoveFrom(o *Ledger) {
	for k, v := range o.entries {
		l.entries[k] = v
	}
}

// WrongOwner's doc names an account's lock, and the word before "lock"
// names neither the receiver nor a parameter: the access on l is not
// explained.
// Account lock should be held.
func (l *Ledger) WrongOwner() int {
	return len(l.entries) // want `l.entries is documented as guarded by mu`
}

// unmark is called only where l.mu is held or documented as held: its
// access is not reported (and, the doc being no proof, not evidence).
func (l *Ledger) unmark(k string) { delete(l.marks, k) }

// Lock should be held.
func (l *Ledger) Unmark(k string) { l.unmark(k) }

func (l *Ledger) UnmarkAll(ks []string) {
	l.mu.Lock()
	for _, k := range ks {
		l.unmark(k)
	}
	l.mu.Unlock()
}

// remark has a caller that neither holds l.mu nor says it does: reported.
func (l *Ledger) remark(k string) {
	l.marks[k] = false // want `l.marks is documented as guarded by mu`
}

func (l *Ledger) Remark(k string) { l.remark(k) }

// A doc that says the lock must not be held explains nothing.
// Lock must not be held.
func (l *Ledger) NotHeld() int {
	return l.total // want `l.total is accessed with l.mu held`
}

// applyLocked takes l.mu through a local helper when need is set; callers
// that pass false hold it. The accesses after lock() run with l.mu held on
// some paths: neither evidence nor a miss.
func (l *Ledger) applyLocked(k string, v int, need bool) {
	lock := func() {
		if need {
			l.mu.Lock()
		}
	}
	unlock := func() {
		if need {
			l.mu.Unlock()
		}
	}
	lock()
	if l.entries == nil {
		unlock()
		return
	}
	l.entries[k] = v
	unlock()
}

func (l *Ledger) Apply(k string, v int) { l.applyLocked(k, v, true) }

// Configure's helper takes cfgMu on a flag, not mu: l.notes is not held
// on any path. Reported.
func (l *Ledger) Configure(c string, need bool) {
	lock := func() {
		if need {
			l.cfgMu.Lock()
		}
	}
	lock()
	l.cfg = c
	l.notes[c] = "configured" // want `l.notes is documented as guarded by mu`
	if need {
		l.cfgMu.Unlock()
	}
}

func (l *Ledger) ApplyAll(m map[string]int) {
	l.mu.Lock()
	for k, v := range m {
		l.applyLocked(k, v, false)
	}
	l.mu.Unlock()
}

func (l *Ledger) Grow(n int64) {
	atomic.AddInt64(&l.used, n)
	atomic.StoreInt64(&l.max, n)
}

// Exceeds reads both counters through pointers kept in locals, with
// sync/atomic only: atomic accesses.
func (l *Ledger) Exceeds(mem bool, n int64) bool {
	var used, max *int64
	if mem {
		used, max = &l.used, &l.max
	} else {
		used = &l.used
		max = &l.max
	}
	return atomic.LoadInt64(used)+n > atomic.LoadInt64(max)
}

// Over keeps the address too, but reads through it plainly: reported.
func (l *Ledger) Over(n int64) bool {
	used := &l.used // want `l.used is accessed with sync/atomic elsewhere`
	return *used > n
}

// NewLedger shuffles the new ledger's order with rand.Shuffle, whose
// callback runs before it returns: l is not yet shared.
func NewLedger(keys []string) *Ledger {
	l := &Ledger{entries: map[string]int{}}
	l.order = append(l.order, keys...)
	rand.Shuffle(len(l.order), func(i, j int) {
		l.order[i], l.order[j] = l.order[j], l.order[i]
	})
	for _, k := range l.order {
		l.entries[k] = 0
	}
	go l.Bump()
	return l
}

// NewLedgerLater hands the closure to later, which runs it in a goroutine:
// l is shared from then on, and the range after it is reported.
func NewLedgerLater(keys []string) *Ledger {
	l := &Ledger{entries: map[string]int{}, order: keys}
	later(func() {
		l.mu.Lock()
		l.order = l.order[:0]
		l.mu.Unlock()
	})
	for _, k := range l.order { // want `l.order is documented as guarded by mu`
		_ = k
	}
	return l
}

func later(f func()) { go f() }

// Later reads the order with the lock; Reorder writes it with it.
func (l *Ledger) Later() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order
}

func (l *Ledger) Reorder() {
	l.mu.Lock()
	l.order = nil
	l.mu.Unlock()
}
