// Package snapshot is a library whose methods run at once (they take
// the store's lock). Recover takes a snapshot of the store's topologies
// under the lock, each a clone, into a map of its own, and then filters
// the clones with no lock: they are its own. A clone's queues are a new
// map (cloneMap makes one, or returns nil), the snapshot map gets only
// new clones and goes nowhere, and a topology copied in whole (Merged's,
// a literal or a new one's copy) shares no map with another; so what
// Recover filters is no other goroutine's, though Import stores clones
// into the shared store too. RecoverShared filters the store's own
// topologies with no lock: a race with Record.
package snapshot

import "sync"

type Store struct {
	mu    sync.Mutex
	topos map[int]*Topo
}

type Topo struct {
	queues map[string]int
}

func newTopo() *Topo {
	return &Topo{queues: map[string]int{}}
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (t *Topo) clone() *Topo {
	c := &Topo{}
	c.queues = cloneMap(t.queues)
	return c
}

// Record counts a queue of a channel, under the lock.
func (s *Store) Record(ch int, q string) {
	s.mu.Lock()
	t := s.topos[ch]
	if t == nil {
		t = newTopo()
		s.topos[ch] = t
	}
	t.queues[q]++
	s.mu.Unlock()
}

// Import stores a clone of the caller's topology.
func (s *Store) Import(ch int, t *Topo) {
	c := t.clone()
	s.mu.Lock()
	s.topos[ch] = c
	s.mu.Unlock()
}

// filter drops the unnamed queue.
func filter(t *Topo) {
	delete(t.queues, "")
	t.queues["recovered"] = 1
}

// Recover filters a snapshot of the topologies.
func (s *Store) Recover() int {
	s.mu.Lock()
	snap := make(map[int]*Topo, len(s.topos))
	for ch, t := range s.topos {
		snap[ch] = t.clone()
	}
	s.mu.Unlock()
	n := 0
	for _, t := range snap {
		filter(t)
		n += len(t.queues)
	}
	return n
}

// RecoverShared marks the store's own topologies, with no lock.
func (s *Store) RecoverShared() {
	s.mu.Lock()
	var ts []*Topo
	for _, t := range s.topos {
		ts = append(ts, t)
	}
	s.mu.Unlock()
	for _, t := range ts {
		t.queues["shared"] = 1 // want `Topo.queues\[\] written in Store.RecoverShared .* races with its read in Store.merged`
	}
}

// merged is one topology with every channel's queues.
func (s *Store) merged() Topo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.topos) == 0 {
		return *newTopo()
	}
	all := map[string]int{}
	for _, t := range s.topos {
		for q, n := range t.queues {
			all[q] += n
		}
	}
	return Topo{queues: all}
}

// Merged counts the queues of every channel.
func (s *Store) Merged() int {
	m := s.merged()
	return len(m.queues)
}
