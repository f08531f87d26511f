// Package heapqueue: a sender keeps its pending packets in a heap under
// its own mutex (lossyconn's TimedSender). Len, Less, Swap, Push and Pop
// are exported for container/heap, which calls them from Send and the
// send loop with the mutex held: they are not entry points of the
// library, and what they touch is not reported against the locked
// code. Peek, an entry point reading the heap with no lock, is.
package heapqueue

import (
	"container/heap"
	"sync"
	"time"
)

type entry struct {
	at   time.Time
	data []byte
}

type Sender struct {
	mu      sync.Mutex
	entries []entry
	out     chan []byte
}

func (h *Sender) Len() int           { return len(h.entries) }
func (h *Sender) Less(i, j int) bool { return h.entries[i].at.Before(h.entries[j].at) }
func (h *Sender) Swap(i, j int)      { h.entries[i], h.entries[j] = h.entries[j], h.entries[i] }
func (h *Sender) Push(x any)         { h.entries = append(h.entries, x.(entry)) }

func (h *Sender) Pop() any {
	n := len(h.entries)
	e := h.entries[n-1]
	h.entries = h.entries[:n-1]
	return e
}

func New() *Sender {
	h := &Sender{out: make(chan []byte, 16)}
	go h.loop()
	return h
}

// Send queues data to go out after delay.
func (h *Sender) Send(data []byte, delay time.Duration) {
	h.mu.Lock()
	heap.Push(h, entry{at: time.Now().Add(delay), data: data})
	h.mu.Unlock()
}

func (h *Sender) loop() {
	for range time.Tick(time.Millisecond) {
		h.mu.Lock()
		for h.Len() > 0 && !h.entries[0].at.After(time.Now()) {
			e := heap.Pop(h).(entry)
			h.out <- e.data
		}
		h.mu.Unlock()
	}
}

// Close drops what is pending.
func (h *Sender) Close() {
	h.mu.Lock()
	h.entries = nil
	h.mu.Unlock()
}

// Peek is the next packet due, read with no lock.
func (h *Sender) Peek() []byte {
	if len(h.entries) == 0 { // want `Sender.entries read in Sender.Peek .* races with its write in Sender.Close`
		return nil
	}
	return h.entries[0].data
}
