// Package main reaches one reader along more ways, each holding its own
// set of locks, than the analysis keeps contexts for. Past the bound, the
// two nearest become one: the way holding only x, which shares nothing
// with the four before it, takes the place of the way holding mu and a,
// which joins the way holding only mu and loses a. Every read then holds
// mu or x, as the writer does. Joining the way holding only x to the last
// context, or to the one it loses least with (mu alone), left that read
// holding nothing.
package main

import "sync"

type store struct {
	mu, a, b, c, x sync.Mutex
	v              int
}

func (s *store) get() int {
	return s.v // no race: every way in holds mu or x, and so does the writer
}

func (s *store) viaA() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.a.Lock()
	defer s.a.Unlock()
	return s.get()
}

func (s *store) viaB() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Lock()
	defer s.b.Unlock()
	return s.get()
}

func (s *store) viaC() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c.Lock()
	defer s.c.Unlock()
	return s.get()
}

func (s *store) viaX() int {
	s.x.Lock()
	defer s.x.Unlock()
	return s.get()
}

func (s *store) viaMu() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get()
}

// unlocked is the one way in that holds neither: its read races.
func (s *store) unlocked() int {
	return s.v // want `store.v read in store.unlocked \(main: main → store.unlocked\) races with its write in writer`
}

func writer(s *store) {
	for i := 0; ; i++ {
		s.mu.Lock()
		s.x.Lock()
		s.v = i
		s.x.Unlock()
		s.mu.Unlock()
	}
}

func main() {
	s := &store{}
	go writer(s)
	println(s.viaA() + s.viaB() + s.viaC() + s.viaMu() + s.viaX() + s.unlocked())
}
