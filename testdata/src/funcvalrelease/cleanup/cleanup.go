// Package cleanup keeps functions to run later, as gVisor's pkg/cleanup
// does. It has no directives: what it does with the function values it is
// handed (Make and Add keep them, Clean runs them, Release hands them back
// without running them) reaches its importers as a fact.
package cleanup

// Cleanup runs its functions in reverse order when Clean is called.
type Cleanup struct {
	cleaners []func()
}

// Make returns a Cleanup that runs f.
func Make(f func()) Cleanup {
	return Cleanup{cleaners: []func(){f}}
}

// Add adds f to what Clean runs.
func (c *Cleanup) Add(f func()) {
	c.cleaners = append(c.cleaners, f)
}

// Clean runs the functions, once.
func (c *Cleanup) Clean() {
	clean(c.cleaners)
	c.cleaners = nil
}

// Release disarms c: Clean runs nothing after it, and the caller gets a
// function that runs what c held.
func (c *Cleanup) Release() func() {
	old := c.cleaners
	c.cleaners = nil
	return func() { clean(old) }
}

func clean(cleaners []func()) {
	for i := len(cleaners) - 1; i >= 0; i-- {
		cleaners[i]()
	}
}

// Stack keeps functions in a map, by name, and runs one on demand.
type Stack struct {
	byName map[string]func()
}

// Push keeps f under name.
func (s *Stack) Push(name string, f func()) {
	if s.byName == nil {
		s.byName = map[string]func(){}
	}
	s.byName[name] = f
}

// Pop runs what is kept under name.
func (s *Stack) Pop(name string) {
	if f := s.byName[name]; f != nil {
		f()
	}
}
