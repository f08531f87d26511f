// Package atomiccopy covers structs with atomically accessed fields copied
// or assigned as a whole: the copy reads, and the assignment writes, the
// atomic field with plain loads and stores.
package atomiccopy

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type Stats struct {
	hits  uint64 //guard:atomic
	name  string
	limit int
}

// Legacy is annotated in gVisor's dialect.
type Legacy struct {
	// +checkatomic
	n int64
}

type Typed struct {
	count atomic.Int64
	label string
}

type Outer struct {
	in   Stats
	tags []string
}

type Plain struct {
	a, b int
}

type Locked struct {
	mu sync.Mutex
	//guard:by mu
	//guard:atomic
	both uint32
}

func (s Stats) Name() string   { return s.name }
func (s *Stats) Hits() uint64  { return atomic.LoadUint64(&s.hits) }
func (p Plain) Sum() int       { return p.a + p.b }
func use(s Stats)              {}
func useOuter(o Outer)         {}
func usePlain(p Plain)         {}
func useLegacy(l Legacy) int64 { return atomic.LoadInt64(&l.n) }

var global Stats

var table []Stats

// ---- copies of shared memory: reported ----

func copyDeref(p *Stats) string {
	v := *p // want `\*p copied by value: the copy reads its atomic field Stats.hits non-atomically; copy the fields one by one, loading hits with sync/atomic, or use a pointer instead of a copy`
	return v.name
}

func passDeref(p *Stats) {
	use(*p) // want `\*p copied by value: the copy reads its atomic field Stats.hits`
}

func returnDeref(p *Stats) Stats {
	return *p // want `\*p copied by value`
}

func assignDeref(p *Stats, other Stats) {
	*p = other // want `\*p assigned by value: the assignment writes its atomic field Stats.hits non-atomically; assign the fields one by one, storing hits with sync/atomic, or use a pointer instead of a copy`
}

func resetDeref(p *Stats) {
	*p = Stats{} // want `\*p assigned by value`
}

func copyNested(o *Outer) {
	useOuter(*o) // want `\*o copied by value: the copy reads its atomic field Outer.in.hits non-atomically; copy the fields one by one, loading in.hits with sync/atomic`
}

func copyField(o *Outer) Stats {
	return o.in // want `o.in copied by value: the copy reads its atomic field Stats.hits`
}

func copyTyped(p *Typed) {
	v := *p // want `\*p copied by value: the copy reads its atomic field Typed.count`
	_ = v.label
}

func copyLegacy(p *Legacy) int64 {
	return useLegacy(*p) // want `\*p copied by value: the copy reads its atomic field Legacy.n`
}

func copyGlobal() Stats {
	return global // want `global copied by value`
}

func copyElement(i int) string {
	s := table[i] // want `table\[i\] copied by value`
	return s.name
}

func sendDeref(ch chan Stats, p *Stats) {
	ch <- *p // want `\*p copied by value`
}

func valueReceiver(p *Stats) string {
	return p.Name() // want `\*p copied by value as the receiver of Name: the copy reads its atomic field Stats.hits non-atomically; give Name a pointer receiver, or copy the fields one by one, loading hits with sync/atomic`
}

func intoLiteral(p *Stats) Outer {
	return Outer{in: *p} // want `\*p copied by value`
}

// A field that is also //guard:by may be read under its lock, so a copy
// is not reported; overwriting it still needs an atomic store.
func lockedBoth(p *Locked, q Locked) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := *p
	_ = v.both
	*p = q // want `\*p assigned by value: the assignment writes its atomic field Locked.both`
}

// ---- not copies of shared atomic fields: silent ----

func plainCopy(p *Plain) int {
	v := *p
	usePlain(*p)
	return v.a + p.Sum()
}

func address(p *Stats) *Stats {
	q := p
	r := &global
	s := &table[0]
	_, _ = r, s
	return q
}

func pointerMethod(p *Stats) uint64 {
	return p.Hits()
}

func fresh() Stats {
	s := Stats{name: "fresh", limit: 3}
	o := Outer{tags: []string{"x"}}
	p := &Stats{name: "p"}
	_, _, _ = s, o, p
	return Stats{name: "literal"}
}

func local() string {
	var s Stats
	t := s
	use(t)
	return t.Name()
}

func fromCall() Stats {
	v := returnDeref(&global) // the callee's copy is reported there
	return v
}

func blank(p *Stats) {
	_ = *p
}

// Map elements are not addressable: nothing reads them atomically.
func mapElement(m map[string]Stats) string {
	s := m["k"]
	m["j"] = s
	return s.name
}

// unsafe.Sizeof does not evaluate its operand.
func size(p *Stats) uintptr {
	return unsafe.Sizeof(*p)
}
