// Package sametype is a library whose methods run at once (they take the
// transport's lock). handlerMap is defined as Transport, so it names the
// same struct: h.mu in its methods is the transport's mu, h.handlers the
// transport's handlers. add, under the lock, reading closed through the
// transport, does not race with Close, under the same lock; Count, reading the handlers with none, races with
// add, though it names them through Transport.
package sametype

import "sync"

type Transport struct {
	mu       sync.Mutex
	handlers map[int]string
	closed   bool
}

type handlerMap Transport

// Close closes the transport, under its lock.
func (t *Transport) Close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
}

// Add adds a handler.
func (t *Transport) Add(id int, s string) {
	(*handlerMap)(t).add(id, s)
}

func (h *handlerMap) add(id int, s string) {
	h.mu.Lock()
	if t := (*Transport)(h); !t.closed {
		h.handlers[id] = s
	}
	h.mu.Unlock()
}

// Count counts the handlers with no lock.
func (t *Transport) Count() int {
	return len(t.handlers) // want `Transport.handlers\[\] read in Transport.Count .* races with its write in handlerMap.add`
}
