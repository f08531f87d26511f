package guardinfer

import "sync"

// Goroutines joined inside a lock the starter's callers hold: resync is
// called only by connect, which holds l.lock throughout, and waits for
// the goroutine it starts before it returns, so the goroutine's range
// over l.channels runs inside connect's critical section, ordered with
// Listen's write (lib/pq's Listener.resync). Silent.

type PQListener struct {
	lock     sync.Mutex
	channels map[string]bool
	closed   bool
}

func (l *PQListener) Listen(ch string) {
	l.lock.Lock()
	defer l.lock.Unlock()
	l.channels[ch] = true
}

func (l *PQListener) Unlisten(ch string) {
	l.lock.Lock()
	defer l.lock.Unlock()
	delete(l.channels, ch)
}

func (l *PQListener) Reconnect(send func(string) error) error {
	return l.connect(send)
}

func (l *PQListener) connect(send func(string) error) error {
	l.lock.Lock()
	defer l.lock.Unlock()
	if l.closed {
		return nil
	}
	return l.resync(send)
}

func (l *PQListener) resync(send func(string) error) error {
	done := make(chan error)
	go func() {
		for ch := range l.channels {
			if err := send(ch); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return <-done
}

// NameWatcher: refresh's goroutine may outlive it (nothing waits for it), so
// its read is not inside the caller's critical section. Reported.
type NameWatcher struct {
	lock  sync.Mutex
	names map[string]bool
}

func (w *NameWatcher) Add(n string) {
	w.lock.Lock()
	defer w.lock.Unlock()
	w.names[n] = true
}

func (w *NameWatcher) Remove(n string) {
	w.lock.Lock()
	defer w.lock.Unlock()
	delete(w.names, n)
}

func (w *NameWatcher) Refresh(send func(string) error) {
	w.lock.Lock()
	defer w.lock.Unlock()
	w.refresh(send)
}

func (w *NameWatcher) refresh(send func(string) error) {
	go func() {
		for n := range w.names { // want `w.names is read here with no lock held \(in the goroutine started at joinedcaller.go:\d+\)`
			_ = send(n)
		}
	}()
}
