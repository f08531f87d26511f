// Package readwrite covers what counts as a write under a read lock: a
// pointer-method call on a value field is a write only when the method
// writes through its receiver, and taking an address is not a write; what
// is done through it is.
package readwrite

import (
	"strings"
	"sync"

	"readwrite/lib"
)

type list struct {
	head *node
	n    int
}

type node struct {
	next *node
	v    int
}

func (l *list) Front() *node { return l.head }

func (l *list) Len() int { return l.n }

func (l *list) PushFront(n *node) {
	n.next = l.head
	l.head = n
	l.n++
}

// viaAlias writes through a local pointing into its receiver.
func (l *list) viaAlias() {
	p := &l.n
	*p = 0
}

// readAlias only reads through one.
func (l *list) readAlias() int {
	p := &l.n
	return *p
}

// store publishes an address inside its receiver.
func (l *list) store(dst **int) { *dst = &l.n }

type S struct {
	mu    sync.RWMutex
	items list            //guard:by mu
	tab   lib.Table       //guard:by mu
	lk    lib.Locked      //guard:by mu
	arr   [4]int          //guard:by mu
	nodes []node          //guard:by mu
	sb    strings.Builder //guard:by mu
	hist  lib.Hist        //guard:by mu
}

func (s *S) Reads() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := s.items.Len()
	for e := s.items.Front(); e != nil; e = e.next {
		n += e.v
	}
	v, _ := s.tab.Get("k")
	for _, x := range s.tab.All() {
		n += x
	}
	s.lk.Inc() // writes only under lib.Locked's own lock
	_ = s.items.readAlias()
	n += s.hist.Sum()
	return n + v + s.tab.Len()
}

func (s *S) Writes(n *node) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.items.PushFront(n)  // want `s.items written while s.mu is read-locked`
	s.tab.Put("k", 1)     // want `s.tab written while s.mu is read-locked`
	s.tab.Reset()         // want `s.tab written while s.mu is read-locked`
	s.tab.Self()          // want `s.tab written while s.mu is read-locked`
	s.lk.IncRacy()        // want `s.lk written while s.mu is read-locked`
	s.items.viaAlias()    // want `s.items written while s.mu is read-locked`
	s.sb.WriteString("x") // want `s.sb written while s.mu is read-locked`
	var p *int
	s.items.store(&p) // want `s.items written while s.mu is read-locked`
	s.hist.Fill()     // want `s.hist written while s.mu is read-locked`
	s.tab.Visit(nil)  // want `s.tab written while s.mu is read-locked`
	s.tab.Sink(nil)   // want `s.tab written while s.mu is read-locked`
	s.tab.Raw()       // want `s.tab written while s.mu is read-locked`
	s.tab.Ext()       // want `s.tab written while s.mu is read-locked`
}

func (s *S) Addresses() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := &s.arr[1] // taking the address is not a write
	q := &s.nodes[0]
	n := *p + q.v
	*p = 2  // want `s.arr written while s.mu is read-locked`
	q.v = 3 // want `s.nodes written while s.mu is read-locked`
	r := &s.arr[2]
	sink(r) // want `s.arr written while s.mu is read-locked`
	return n
}

func (s *S) WritesLocked(n *node) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items.PushFront(n)
	s.tab.Put("k", 1)
	p := &s.arr[0]
	*p = 1
}

var kept *int

func sink(p *int) { kept = p }
