// Package testwg: a test that starts goroutines and reads what they
// write before wg.Wait (a race), and after it (none).
package testwg

import (
	"sync"
	"testing"
)

type result struct{ n, m int }

func TestEarlyRead(t *testing.T) {
	r := &result{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.n = 1 // want `result.n written in TestEarlyRead func literal 1 .* races with its read in TestEarlyRead`
		r.m = 2 // read only after wg.Wait: no race
	}()
	if r.n != 1 {
		t.Log("early")
	}
	wg.Wait()
	if r.m != 2 {
		t.Fatal("late")
	}
}
