// Command passback: a publisher gathers the subscribers of a topic into
// a set it makes for the call, lets every hook see it (a hook hands the
// set back: the registry of hooks returns what the last one returned),
// then fills and reads it (mochi-mqtt's publishToSubscribers). The set
// is the call's own, whichever way it came back, through the recursive
// scan that fills it and the hooks that hand it back: not reported. A
// helper that hands back a cache it keeps, not the one it was given,
// makes what its caller writes shared, and is.
package main

import (
	"os"
	"sync/atomic"
)

type Subscribers struct {
	Shared   map[string]int
	Selected map[string]int
}

type Hook interface {
	Provides(name string) bool
	OnSelect(subs *Subscribers) *Subscribers
}

// Base hands the set back untouched; hooks embed it.
type Base struct{ id string }

func (b *Base) OnSelect(subs *Subscribers) *Subscribers { return subs }

func (b *Base) Provides(name string) bool { return false }

type Auth struct {
	Base
	users map[string]string
}

func (a *Auth) Provides(name string) bool { return name == "OnConnect" }

type Logger struct {
	Base
	lines int
}

// SelectShared makes the set of selected subscribers.
func (s *Subscribers) SelectShared() {
	s.Selected = make(map[string]int, len(s.Shared))
}

// Hooks runs every hook that provides OnSelect on the set in turn.
type Hooks struct {
	internal atomic.Value // []Hook
}

func (h *Hooks) Add(hook Hook) {
	all, _ := h.internal.Load().([]Hook)
	h.internal.Store(append(all, hook))
}

func (h *Hooks) GetAll() []Hook {
	all, _ := h.internal.Load().([]Hook)
	return all
}

func (h *Hooks) OnSelect(subs *Subscribers) *Subscribers {
	for _, hook := range h.GetAll() {
		if hook.Provides("OnSelect") {
			subs = hook.OnSelect(subs)
		}
	}
	return subs
}

func gather(topic string) *Subscribers {
	return scan(topic, 0, &Subscribers{Shared: map[string]int{}})
}

// scan adds the subscribers of each level of topic to subs, and hands it
// back.
func scan(topic string, d int, subs *Subscribers) *Subscribers {
	if d >= len(topic) {
		return subs
	}
	subs.Shared[topic[:d+1]] = d
	return scan(topic, d+1, subs)
}

func publish(h *Hooks, topic string) int {
	subs := gather(topic)
	if len(subs.Shared) > 0 {
		subs = h.OnSelect(subs)
		if len(subs.Selected) == 0 {
			subs.SelectShared()
		}
	}
	n := 0
	for range subs.Selected {
		n++
	}
	return n
}

// Cache is looked up through fill, which hands back the one shared
// cache rather than the one it was given: what lookup writes is shared.
type Cache struct {
	Entries map[string]int
	Hits    int
}

var shared = &Cache{Entries: map[string]int{}}

func fill(c *Cache, k string) *Cache {
	if _, ok := shared.Entries[k]; ok {
		return shared
	}
	return shared
}

func lookup(k string) int {
	c := fill(&Cache{}, k)
	c.Hits++ // want `Cache.Hits written in lookup .* races with its (read|write) in lookup`
	return c.Hits
}

func main() {
	h := &Hooks{}
	h.Add(&Logger{})
	h.Add(&Auth{users: map[string]string{}})
	for _, t := range os.Args[1:] {
		go publish(h, t)
		go lookup(t)
	}
}
