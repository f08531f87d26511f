package lockedconv

import "testing"

// Tests call ...Locked helpers directly to set state up and inspect it:
// the name convention is not checked in test files, except in a goroutine
// the test starts, which holds no lock.
func TestFlushDirectly(t *testing.T) {
	c := &Conn{}
	c.mu.Lock()
	c.mu.Unlock()
	c.flushLocked()
}

func TestFlushInGoroutine(t *testing.T) {
	c := &Conn{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.mu.Lock()
		c.mu.Unlock()
		c.flushLocked() // want `call to c.flushLocked needs c.mu locked`
	}()
	<-done
}
