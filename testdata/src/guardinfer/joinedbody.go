package guardinfer

import "sync"

// go f.run() is joined by <-f.done when run's body closes f.done on every
// path, read from run's declaration: after the receive the starter's
// object is its own again (net/http's addConnIfNeeded waits for its
// addConnCall this way).

type Fetch struct {
	mu     sync.Mutex
	result string // guarded by mu
	done   chan struct{}
}

func (f *Fetch) run(url string) {
	f.mu.Lock()
	f.result = url
	f.mu.Unlock()
	close(f.done)
}

func (f *Fetch) Result() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.result
}

// FetchWait reads after the join: silent.
func FetchWait(url string) string {
	f := &Fetch{done: make(chan struct{})}
	go f.run(url)
	<-f.done
	return f.result
}

// FetchEarly reads while run may still write: reported.
func FetchEarly(url string) string {
	f := &Fetch{done: make(chan struct{})}
	go f.run(url)
	return f.result // want `f.result is documented as guarded by mu`
}
