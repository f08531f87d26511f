package guardinfertests

import (
	"sync"
	"testing"
)

// TestJoined reads t.n after wg.Wait: silent.
func TestJoined(t *testing.T) {
	tl := &Tally{}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl.Inc()
		}()
	}
	wg.Wait()
	if tl.n != 4 {
		t.Fatal(tl.n)
	}
}

// TestRacy reads t.n while the workers run.
func TestRacy(t *testing.T) {
	tl := &Tally{}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl.Inc()
		}()
	}
	if tl.n > 4 { // want `tl.n is documented as guarded by mu`
		t.Fatal("too many")
	}
	wg.Wait()
}

// TestSetUp writes t.n with no goroutine around: silent.
func TestSetUp(t *testing.T) {
	tl := &Tally{}
	tl.n = 3
	tl.Inc()
	if tl.n != 4 {
		t.Fatal(tl.n)
	}
}
