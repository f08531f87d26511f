// Package ctashapes has one function per check-then-act shape, each
// followed by its correct twin, which stays silent.
package ctashapes

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type Sess struct{ id int }

type Reg struct {
	mu sync.Mutex
	m  map[string]*Sess //guard:by mu
	n  int              //guard:by mu
	p  *Sess            //guard:by mu
	a  int              //guard:by mu
}

// ---- the guard clause: get-or-create ----

func (r *Reg) GetOrCreate(k string) *Sess {
	r.mu.Lock()
	s, ok := r.m[k]
	r.mu.Unlock()
	if ok {
		return s
	}
	s = &Sess{}
	r.mu.Lock()
	r.m[k] = s // want `check-then-act: r.m\[k\] was read at line 25 and the lock released`
	r.mu.Unlock()
	return s
}

// Twin: the lookup is repeated under the lock that inserts.
func (r *Reg) GetOrCreateOK(k string) *Sess {
	r.mu.Lock()
	s, ok := r.m[k]
	r.mu.Unlock()
	if ok {
		return s
	}
	n := &Sess{}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.m[k]; ok {
		return s
	}
	r.m[k] = n
	return n
}

// ---- an early exit inside a loop ----

func (r *Reg) AddAll(ks []string) {
	for _, k := range ks {
		r.mu.Lock()
		_, ok := r.m[k]
		r.mu.Unlock()
		if ok {
			continue
		}
		r.mu.Lock()
		r.m[k] = &Sess{} // want `check-then-act: r.m\[k\] was read at line 60 and the lock released`
		r.mu.Unlock()
	}
}

// Twin: check and insert in one critical section per key.
func (r *Reg) AddAllOK(ks []string) {
	for _, k := range ks {
		r.mu.Lock()
		if _, ok := r.m[k]; !ok {
			r.m[k] = &Sess{}
		}
		r.mu.Unlock()
	}
}

// ---- the lost update ----

func (r *Reg) Inc() {
	r.mu.Lock()
	v := r.n
	r.mu.Unlock()
	r.mu.Lock()
	r.n = v + 1 // want `check-then-act: r.n was read at line 86 and the lock released`
	r.mu.Unlock()
}

// Twin: read and write in one critical section.
func (r *Reg) IncOK() {
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
}

// ---- a straight-line split ----

func (r *Reg) Bump(k string) {
	r.mu.Lock()
	s := r.m[k]
	r.mu.Unlock()
	r.mu.Lock()
	r.m[k] = &Sess{id: s.id + 1} // want `check-then-act: r.m\[k\] was read at line 104 and the lock released`
	r.mu.Unlock()
}

// ---- a re-check of the wrong thing ----

func (r *Reg) Install() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		np := &Sess{}
		r.mu.Lock()
		if r.a > 0 { // another field: it does not re-check r.p
			r.mu.Unlock()
			return
		}
		r.p = np // want `check-then-act: r.p was read at line 115 and the lock released`
		r.mu.Unlock()
	}
}

// Twin: the same field is re-checked under the lock that writes.
func (r *Reg) InstallOK() {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		np := &Sess{}
		r.mu.Lock()
		if r.p == nil {
			r.p = np
		}
		r.mu.Unlock()
	}
}

// ---- map keys ----

// A different key is a different entry.
func (r *Reg) OtherKey(a, b string) {
	r.mu.Lock()
	_, ok := r.m[a]
	r.mu.Unlock()
	if !ok {
		r.mu.Lock()
		r.m[b] = &Sess{}
		r.mu.Unlock()
	}
}

// ---- through helpers ----

func (r *Reg) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *Reg) setCount(v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n = v
}

func (r *Reg) addCount(d int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n += d
}

func (r *Reg) IncHelpers() {
	v := r.count()
	r.setCount(v + 1) // want `check-then-act: r.n was read at line 179 \(in r.count\) and the lock released`
}

// Twin: one helper reads and writes in its own critical section.
func (r *Reg) IncHelpersOK() {
	r.addCount(1)
}

// ---- a helper that releases and re-takes the lock ----

func (r *Reg) pause() {
	r.mu.Unlock()
	work()
	r.mu.Lock()
}

func work() {}

func (r *Reg) IncAcrossPause() {
	r.mu.Lock()
	v := r.n
	r.pause()
	r.n = v + 1 // want `check-then-act: r.n was read at line 200 and the lock released`
	r.mu.Unlock()
}

// Twin: read again after the lock is back.
func (r *Reg) IncAcrossPauseOK() {
	r.mu.Lock()
	r.pause()
	r.n++
	r.mu.Unlock()
}

type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items int //guard:by mu
}

// sync.Cond.Wait releases and re-takes q.mu.
func (q *Queue) TakeStale() {
	q.mu.Lock()
	n := q.items
	for n == 0 {
		q.cond.Wait()
	}
	q.items = n - 1 // want `check-then-act: q.items was read at line 223 and the lock released`
	q.mu.Unlock()
}

// Twin: the condition is re-read after every Wait.
func (q *Queue) Take() {
	q.mu.Lock()
	for q.items == 0 {
		q.cond.Wait()
	}
	q.items--
	q.mu.Unlock()
}

// ---- check and act in one critical section ----

func (r *Reg) OneSection(k string) *Sess {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.m[k]; ok {
		return s
	}
	s := &Sess{}
	r.m[k] = s
	return s
}

// ---- sync/atomic ----

type Flags struct {
	state atomic.Int32
	hits  int64
}

func (f *Flags) Start() {
	if f.state.Load() == 0 {
		f.state.Store(1) // want `check-then-act: f.state.Store runs only after f.state.Load\(\) said so, and another goroutine can store in between: use f.state.CompareAndSwap`
	}
}

// Twin.
func (f *Flags) StartOK() {
	f.state.CompareAndSwap(0, 1)
}

func (f *Flags) Next() {
	f.state.Store(f.state.Load() + 1) // want `check-then-act: f.state.Store stores a value computed from f.state.Load\(\), and an update another goroutine makes in between is lost: use f.state.Add`
}

func (f *Flags) NextSplit() {
	v := f.state.Load()
	f.state.Store(v + 1) // want `check-then-act: f.state.Store stores a value computed from f.state.Load\(\).*use f.state.Add`
}

func (f *Flags) Hit() {
	atomic.StoreInt64(&f.hits, atomic.LoadInt64(&f.hits)+1) // want `check-then-act: atomic.StoreInt64 stores a value computed from atomic.LoadInt64\(&f.hits\).*use atomic.AddInt64`
}

// Twins.
func (f *Flags) NextOK() { f.state.Add(1) }
func (f *Flags) HitOK()  { atomic.AddInt64(&f.hits, 1) }

// A cache: the guard clause hands back what was loaded; two goroutines
// may both fill it, with the same value.
var cache atomic.Pointer[Sess]

func Cached() *Sess {
	if s := cache.Load(); s != nil {
		return s
	}
	s := &Sess{id: 1}
	cache.Store(s)
	return s
}

// A fast path, then the load repeated under a lock every writer holds.
type Task struct {
	mu     sync.Mutex
	parent atomic.Pointer[Task]
}

func (t *Task) Detach() {
	if t.parent.Load() == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.parent.Load() != nil {
		t.parent.Store(nil)
	}
}

// ---- sync.Map ----

var sessions sync.Map

func LoadThenStore(k string) {
	if _, ok := sessions.Load(k); !ok {
		sessions.Store(k, &Sess{}) // want `check-then-act: sessions.Store depends on an earlier sessions.Load of the same key.*use sessions.LoadOrStore`
	}
}

func LoadGuardStore(k string) *Sess {
	if s, ok := sessions.Load(k); ok {
		return s.(*Sess)
	}
	s := &Sess{}
	sessions.Store(k, s) // want `check-then-act: sessions.Store depends on an earlier sessions.Load of the same key`
	return s
}

func LoadComputeStore(k string) {
	v, _ := sessions.Load(k)
	s, _ := v.(*Sess)
	sessions.Store(k, &Sess{id: s.id + 1}) // want `check-then-act: sessions.Store depends on an earlier sessions.Load of the same key`
}

// Twin.
func LoadOrStore(k string) *Sess {
	s, _ := sessions.LoadOrStore(k, &Sess{})
	return s.(*Sess)
}

// ---- a guard clause on a helper's result (Attach's get-or-create) ----

func (r *Reg) current() *Sess {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.p
}

func (r *Reg) install(p *Sess) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p = p
}

func (r *Reg) Attach() *Sess {
	if p := r.current(); p != nil {
		return p
	}
	np := &Sess{}
	r.install(np) // want `check-then-act: r.p was read at line \d+ \(in r.current\) and the lock released`
	return np
}

// Twin: an error a helper returns is error handling, even when it is
// made from guarded state.
func (r *Reg) validate() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n > 10 {
		return fmt.Errorf("too many: %d", r.n)
	}
	return nil
}

func (r *Reg) Reset() error {
	if err := r.validate(); err != nil {
		return err
	}
	r.setCount(0)
	return nil
}

// ---- a helper with two results: only the one used decides ----

func (r *Reg) both() (*Sess, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.p, r.n
}

func (r *Reg) AttachCounting() *Sess {
	if p, _ := r.both(); p != nil {
		return p
	}
	r.setCount(0) // r.n came back in the result thrown away: no decision on it
	np := &Sess{}
	r.install(np) // want `check-then-act: r.p was read at line \d+ \(in r.both\) and the lock released`
	return np
}

// ---- a loop that re-reads in its post statement ----

type Backlog struct {
	mu    sync.Mutex
	items []int //guard:by mu
}

// The lock is dropped at the end of each iteration; the post statement
// reads the queue again under the lock taken back, so each removal acts
// on a fresh read (gVisor's tbf queue loop).
func (b *Backlog) Drain(send func(int)) {
	b.mu.Lock()
	for n := len(b.items); n > 0; n = len(b.items) {
		v := b.items[0]
		b.items = b.items[1:]
		b.mu.Unlock()
		send(v)
		b.mu.Lock()
	}
	b.mu.Unlock()
}
