// Package atomicpublish: an object set up and then published through an
// atomic held in a field, by a helper that stores it (mochi-mqtt's
// Server.AddHook: hook.SetOpts, then Hooks.Add storing the hooks' slice in
// an atomic.Value), is read only by code that loads that atomic first
// (Hooks.GetAll): the set-up happens before the read. A write after the
// publication does not.
package main

import (
	"sync"
	"sync/atomic"
)

type Hook struct{ log string }

type Hooks struct {
	mu       sync.Mutex
	internal atomic.Value
}

func (h *Hooks) Add(x *Hook) {
	h.mu.Lock()
	defer h.mu.Unlock()
	list, _ := h.internal.Load().([]*Hook)
	h.internal.Store(append(list, x))
}

func (h *Hooks) All() []*Hook {
	list, ok := h.internal.Load().([]*Hook)
	if !ok {
		return nil
	}
	return list
}

func setup(x *Hook, h *Hooks) {
	x.log = "set" // before Add publishes it: not reported
	h.Add(x)
}

func late(x *Hook, h *Hooks) {
	h.Add(x)
	x.log = "late" // want `Hook.log written in late .* races with its read in reader`
}

func reader(h *Hooks) {
	for _, x := range h.All() {
		_ = x.log
	}
}

func main() {
	h := &Hooks{}
	go setup(&Hook{}, h)
	go late(&Hook{}, h)
	for i := 0; i < 2; i++ {
		go reader(h)
	}
	select {}
}
