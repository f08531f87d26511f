package shared

import (
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// Joins relayed by a goroutine: the starter does not wait itself; a
// goroutine of its own waits for the workers and then closes (or sends
// on) a channel the starter receives from. The receive comes after the
// close, the close after the wait, the wait after every worker's Done:
// what the workers did happens before the starter goes on.

// relayedWait: the test waits for the close or fails; t.Fatalf does not
// return, so the loop after the select runs only once the workers are
// done (consul's TestAPI_LockContend).
func relayedWait(t *testing.T, work func(int) bool) {
	var wg sync.WaitGroup
	acquired := make([]bool, 3)
	for idx := range acquired {
		wg.Add(1)
		go func(idx int) {
			defer wg.Done()
			acquired[idx] = work(idx)
		}(idx)
	}
	doneCh := make(chan struct{})
	go func() {
		wg.Wait()
		close(doneCh)
	}()
	select {
	case <-doneCh:
	case <-time.After(time.Second):
		t.Fatalf("timeout")
	}
	for idx, did := range acquired {
		if !did {
			t.Fatalf("contender %d never acquired", idx)
		}
	}
}

// relayedDeferClose: the close is deferred, so it runs after the wait.
func relayedDeferClose(work func(int) int) int {
	var wg sync.WaitGroup
	total := make([]int, 4)
	for i := range total {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total[i] = work(i)
		}()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		wg.Wait()
	}()
	<-done
	return total[0] + total[3]
}

// relayedGroupResult: an errgroup's result sent over a channel.
func relayedGroupResult(work func(int) int) (int, error) {
	var g errgroup.Group
	var first int
	g.Go(func() error {
		first = work(1)
		return nil
	})
	errc := make(chan error, 1)
	go func() { errc <- g.Wait() }()
	err := <-errc
	return first, err
}

// relaySignalsFirst: the relay closes the channel before it waits, so
// the receive proves nothing about the workers.
func relaySignalsFirst(work func(int) bool) bool {
	var wg sync.WaitGroup
	ok := make([]bool, 2)
	for i := range ok {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok[i] = work(i) // want `ok is written into in the goroutine started at relay.go:\d+ and read from by the function that started it, at relay.go:\d+, before joining it`
		}()
	}
	done := make(chan struct{})
	go func() {
		close(done)
		wg.Wait()
	}()
	<-done
	return ok[0]
}

// relayTimeoutGoesOn: on the timeout arm the test only logs and goes on
// to read while the workers may still run.
func relayTimeoutGoesOn(t *testing.T, work func(int) bool) {
	var wg sync.WaitGroup
	acquired := make([]bool, 3)
	for idx := range acquired {
		wg.Add(1)
		go func(idx int) {
			defer wg.Done()
			acquired[idx] = work(idx) // want `acquired is written into in the goroutine started at relay.go:\d+ and read from by the function that started it, at relay.go:\d+, before joining it`
		}(idx)
	}
	doneCh := make(chan struct{})
	go func() {
		wg.Wait()
		close(doneCh)
	}()
	select {
	case <-doneCh:
	case <-time.After(time.Second):
		t.Logf("timeout")
	}
	for _, did := range acquired {
		if !did {
			t.Errorf("never acquired")
		}
	}
}
