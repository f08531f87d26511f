package atomiccopy

import (
	"sync"
	"sync/atomic"
)

// A copy races only with goroutines that can be storing to the same
// object. Objects this function made and kept to itself, objects it gets
// back after joining the goroutines it handed them to, and prototypes
// nobody writes are its own.

func newStats(name string) *Stats { return &Stats{name: name} }

func fill(p *Stats) { p.name = "filled" }

func worker(p *Stats) { atomic.AddUint64(&p.hits, 1) }

var prototype = Stats{name: "proto", limit: 10}

var registry *Stats

type Holder struct{ cur *Stats }

func madeHere() Stats {
	p := &Stats{}
	fill(p)
	return *p // made here, never handed to another goroutine
}

func madeByConstructor() string {
	p := newStats("c")
	v := *p // newStats returns a new object it has not published
	return v.name
}

func madeByNew() Stats {
	p := new(Stats)
	p.limit = 2
	return *p
}

func fromPrototype() Stats {
	s := prototype // nothing in the package writes prototype
	s.name = "copy"
	return s
}

func copiedBeforeStart() Stats {
	p := &Stats{}
	v := *p // before the goroutine exists
	go worker(p)
	return v
}

func copiedAfterJoin() Stats {
	p := &Stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddUint64(&p.hits, 1)
	}()
	wg.Wait()
	return *p // the goroutine is done
}

func copiedAfterReceive() Stats {
	p := &Stats{}
	done := make(chan struct{})
	go func() {
		worker(p)
		close(done)
	}()
	<-done
	return *p
}

// ---- reported: another goroutine can be storing to the object ----

func copiedWhileRunning() Stats {
	p := &Stats{}
	go worker(p)
	return *p // want `\*p copied by value: the copy reads its atomic field Stats.hits`
}

func copiedBeforeJoin() Stats {
	p := &Stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		worker(p)
	}()
	v := *p // want `\*p copied by value`
	wg.Wait()
	return v
}

func publishedToGlobal() Stats {
	p := &Stats{}
	registry = p
	return *p // want `\*p copied by value`
}

func publishedToField(h *Holder) Stats {
	p := newStats("h")
	h.cur = p
	return *p // want `\*p copied by value`
}

func fromMap(m map[string]*Stats) Stats {
	p := m["k"]
	return *p // want `\*p copied by value`
}

func keptInClosure() (func(), Stats) {
	p := &Stats{}
	f := func() { worker(p) }
	return f, *p // want `\*p copied by value`
}

var written = Stats{name: "w"}

func bumpWritten() { atomic.AddUint64(&written.hits, 1) }

func fromWrittenGlobal() Stats {
	return written // want `written copied by value`
}
