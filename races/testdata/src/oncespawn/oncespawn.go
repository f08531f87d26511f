// Package oncespawn is a library whose methods run at once (they take the
// transport's lock). init sets the transport up through its Once, from
// Dial and from AddPath; Dial then starts the connection's goroutine,
// which reads what init set: whichever of them ran init's function, it
// was done before Dial's Do returned, so before the goroutine started.
// Relog rewrites the name under the lock neither init's function nor the
// goroutine takes: a race with both.
package oncespawn

import "sync"

type Transport struct {
	once  sync.Once
	mu    sync.Mutex
	conns map[int]bool
	name  string
}

func (t *Transport) init() {
	t.once.Do(func() {
		t.name = "default"
		t.conns = map[int]bool{}
	})
}

// Dial sets the transport up and starts a connection.
func (t *Transport) Dial(id int) {
	t.init()
	go t.run(id)
}

func (t *Transport) run(id int) {
	println(t.name) // reported with Relog's write
	t.mu.Lock()
	t.conns[id] = true
	t.mu.Unlock()
}

// AddPath sets the transport up.
func (t *Transport) AddPath() {
	t.init()
}

// Relog renames the log, under the lock.
func (t *Transport) Relog(name string) {
	t.mu.Lock()
	t.name = name // want `Transport.name written in Transport.Relog .* races with its write in Transport.init func literal 1 .*\(and 1 more access\)`
	t.mu.Unlock()
}
