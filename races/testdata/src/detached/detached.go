// Package detached: a map taken out of shared state under its lock
// (loaded, then the field overwritten in the same critical section) is
// nobody else's afterwards: every writer that reached it under the lock
// finished before the swap. Ranging over it with the lock released races
// only with accesses that hold no lock (statsd's flushMetrics).
package detached

import "sync"

type inner struct {
	sync.Mutex
	counts map[string]int
}

// shard embeds inner, as a cache-line padded shard does: shard.counts is
// two field steps.
type shard struct {
	inner
	_ [8]byte
}

type Agg struct {
	shards [4]shard
	mu     sync.Mutex
	seen   map[string]int
	peeked map[string]int
	leaked map[string]int
	loose  map[string]int
	kept   []map[string]int
}

func (a *Agg) Add(i int, k string) {
	s := &a.shards[i]
	s.Lock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k]++ // under the shard's lock: before or after Flush's swap
	s.Unlock()
}

// Flush swaps each shard's map out under its lock (an empty one is left
// with an early unlock), then reads the old one with no lock.
func (a *Agg) Flush() int {
	n := 0
	for i := range a.shards {
		s := &a.shards[i]
		s.Lock()
		counts := s.counts
		if len(counts) == 0 {
			s.Unlock()
			continue
		}
		s.counts = nil
		s.Unlock()
		for _, c := range counts {
			n += c
		}
	}
	return n
}

func (a *Agg) Note(k string) {
	a.mu.Lock()
	a.seen[k]++
	a.peeked[k]++
	a.leaked[k]++
	a.loose[k]++
	a.mu.Unlock()
}

// Seen swaps under the lock too: silent. (The loop merges the map with
// itself: a cycle of phis.)
func (a *Agg) Seen(rounds int) int {
	a.mu.Lock()
	seen := a.seen
	a.seen = map[string]int{}
	a.mu.Unlock()
	n := len(seen)
	for i := 0; i < rounds; i++ {
		if i == 1 {
			seen = nil
		}
	}
	return n + len(seen)
}

// Peek loads under the lock but leaves the map in place: its read races
// with Note's update.
func (a *Agg) Peek() int {
	a.mu.Lock()
	m := a.peeked
	a.mu.Unlock()
	return len(m) // want `Agg.peeked\[\] read in Agg.Peek .* races with its write in Agg.Note`
}

// Leak swaps the map out but keeps it in another field: not detached.
func (a *Agg) Leak() int {
	a.mu.Lock()
	m := a.leaked
	a.leaked = map[string]int{}
	a.kept = append(a.kept, m)
	a.mu.Unlock()
	return len(m) // want `Agg.leaked\[\] read in Agg.Leak .* races with its write in Agg.Note`
}

// Loose releases the lock between the load and the swap: a Note in
// between writes the map it then reads with no lock.
func (a *Agg) Loose() int {
	a.mu.Lock()
	m := a.loose
	a.mu.Unlock()
	a.mu.Lock()
	a.loose = map[string]int{}
	a.mu.Unlock()
	return len(m) // want `Agg.loose\[\] read in Agg.Loose .* races with its write in Agg.Note`
}
