// Command recursivefill: a topic index fills the subscriber set each
// publish makes for itself, walking its tree with a function that hands
// the set on to itself (mochi-mqtt's TopicsIndex.Subscribers). A
// function passing its parameter back to itself, in its own place, lets
// it go no further than it does anyway: the set stays the publish's own,
// and two publishes' fills are not reported. A walk that also stores the
// set where another goroutine reads it publishes it: its later fill is.
package main

import "sync"

type Subscribers struct {
	Subs map[string]int
	N    int
}

type particle struct {
	mu   sync.Mutex
	subs map[string]int
	next *particle
}

type Index struct{ root *particle }

func (x *Index) Subscribers(topic string) *Subscribers {
	return x.scan(topic, 0, nil, &Subscribers{Subs: map[string]int{}})
}

func (x *Index) scan(topic string, d int, n *particle, s *Subscribers) *Subscribers {
	if n == nil {
		n = x.root
	}
	if d > len(topic) {
		return s
	}
	if n.next != nil {
		x.scan(topic, d+1, n.next, s)
	}
	x.gather(n, s)
	return s
}

func (x *Index) gather(n *particle, s *Subscribers) {
	if s.Subs == nil {
		s.Subs = map[string]int{}
	}

	for k, v := range n.subs {
		s.Subs[k] = v
		s.N++
	}
}

var (
	lastMu sync.Mutex
	last   *Subscribers
)

func keep(s *Subscribers) {
	lastMu.Lock()
	last = s
	lastMu.Unlock()
}

func publish(x *Index, t string) int {
	subs := x.Subscribers(t)
	defer keep(subs)
	n := 0
	for _, v := range subs.Subs {
		n += v
	}
	return n + subs.N
}

// scanShared is scan, but it keeps each set it fills in shared.
func (x *Index) scanShared(topic string, d int, n *particle, s *Subscribers) *Subscribers {
	if n == nil {
		n = x.root
	}
	lastMu.Lock()
	shared = s
	lastMu.Unlock()
	if d < len(topic) && n.next != nil {
		x.scanShared(topic, d+1, n.next, s)
	}
	s.N++ // want `Subscribers.N written in Index.scanShared .* races with its read in main func literal 4`
	return s
}

var shared *Subscribers

func main() {
	x := &Index{root: &particle{subs: map[string]int{}}}
	go func() {
		for {
			publish(x, "a")
		}
	}()
	go func() {
		for {
			publish(x, "b")
		}
	}()
	go func() {
		x.scanShared("c", 0, nil, &Subscribers{})
	}()
	go func() {
		lastMu.Lock()
		s := shared
		lastMu.Unlock()
		if s != nil {
			_ = s.N
		}
	}()
	select {}
}
