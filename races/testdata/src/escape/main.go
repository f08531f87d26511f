// Package main: an object no other goroutine can reach cannot race,
// whichever goroutine made it and however the code reaches it. The
// points-to analysis names objects by where they are allocated, so
// every call of a helper makes "the same" object; the escape analysis
// tells apart the ones that stay with the goroutine that made them from
// those handed to another: passed to a go statement, stored in a package
// variable or in something shared, put in a queue another goroutine
// takes them from.
package main

import (
	"errors"
	"fmt"
	"sync"
)

// A variable a deferred closure captures stays with its call (etcd's
// processInternalRaftRequestOnce: err, set by the body, read by the
// deferred closure): each call has its own.
func request(id int) (err error) {
	defer func() {
		if err != nil {
			fmt.Println(id, err)
		}
	}()
	err = fmt.Errorf("request %d", id)
	return err
}

// A buffer each call makes and reaches through a holder's field (a
// load, which ownership alone does not see through) is still its own.
type buffer struct{ n int }

type holder struct{ buf *buffer }

func fill() int {
	h := &holder{buf: &buffer{}}
	for i := 0; i < 3; i++ {
		h.buf.n++
	}
	return h.buf.n
}

// An implementation of an interface receives only its own objects: a
// call through the interface does not hand it the other
// implementation's, whose first field holds a shared slice; else what
// localCloser's first field holds would look shared too.
type closer interface{ close() }

type sharedCloser struct{ log *[]string }

func (s *sharedCloser) close() { fmt.Println(len(*s.log)) }

type state struct{ v int }

type localCloser struct{ st *state }

func (l *localCloser) close() { l.st.v = 1 }

type box struct{ c closer }

func closeIt(c closer) { c.close() }

var global = &sharedCloser{log: new([]string)}

func closeLocal() {
	b := &box{c: &localCloser{st: &state{}}}
	closeIt(b.c)
}

// A work item put in a queue another goroutine takes from is shared,
// though the pointer comes back from the queue as an interface the
// analysis cannot follow into: the type assertion lets it through.
type item struct{ pending int }

type queue struct {
	mu    sync.Mutex
	items []any
}

func (q *queue) add(x any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, x)
}

func (q *queue) get() any {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil
	}
	x := q.items[0]
	q.items = q.items[1:]
	return x
}

func produce(q *queue) {
	it := &item{}
	q.add(it)
	it.pending++ // want `item.pending written in produce \(goroutine started in main: main func literal 3 → produce\) races with its write in consume`
}

func consume(q *queue) {
	if it, ok := q.get().(*item); ok {
		it.pending--
	}
}

// A call's results are kept apart: the error beside a buffer (a shared
// package variable) does not make the buffer shared.
var errFull = errors.New("full")

func take(full bool) (*buffer, error) {
	if full {
		return nil, errFull
	}
	return &buffer{}, nil
}

func useTaken() {
	b, err := take(false)
	if err != nil {
		return
	}
	bs := []*buffer{b} // through a slice: ownership alone does not see it
	bs[0].n++
}

// A pointer only points into objects of its type: storing a whole
// struct value (which the analysis follows field by field no further)
// does not put the shared stats where the local counter is.
type stats struct{ hits int }

type local struct{ n int }

type pair struct {
	s *stats
	l *local
}

var shared = &stats{}

func usePair() {
	p := &pair{}
	*p = pair{s: shared, l: &local{}}
	ls := []*local{p.l}
	ls[0].n++
}

// What sync.Pool's Get returns is the caller's alone; Put hands it
// back, to whichever Get is next.
type scratch struct{ n int }

var pool = sync.Pool{New: func() any { return new(scratch) }}

func usePool() {
	s := pool.Get().(*scratch)
	s.n++
	pool.Put(s)
}

// A counter handed to a goroutine is shared with it.
type counter struct{ n int }

func count(c *counter) { c.n++ } // want `counter.n written in count \(goroutine started in main: count\) races with its write in main`

func main() {
	var wg sync.WaitGroup
	q := &queue{}
	for i := 0; i < 4; i++ {
		wg.Add(3)
		go func() { defer wg.Done(); _ = request(i) }()
		go func() {
			defer wg.Done()
			fill()
			closeLocal()
			_ = request(-i)
			useTaken()
			usePair()
			usePool()
		}()
		go func() { defer wg.Done(); produce(q) }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); consume(q) }()
	closeIt(global)
	c := &counter{}
	go count(c)
	c.n++
	wg.Wait()
}
