// Package noblockall is checked with -noblock.all: every lock counts as
// //guard:noblock, so blocking under any lock is reported, and a lock
// marked //guard:noblock still says so.
package noblockall

import (
	"sync"
	"time"
)

type Queue struct {
	mu    sync.Mutex // not marked: only -noblock.all makes it noblock
	items []int      //guard:by mu
	ready chan int

	statsMu sync.Mutex //guard:noblock
	sent    int        //guard:by statsMu
}

func (q *Queue) Push(v int) { // want Push:`blocks\(channel send\)`
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, v)
	q.ready <- v // want `channel send can block while q.mu is held \(-noblock.all\); copy what you need under the lock, release q.mu, then block`
}

func (q *Queue) Count() { // want Count:`blocks\(time.Sleep\)`
	q.statsMu.Lock()
	defer q.statsMu.Unlock()
	q.sent++
	time.Sleep(time.Millisecond) // want `time.Sleep can block while q.statsMu is held \(//guard:noblock\)`
}

// The fixed shape: block after releasing the lock.
func (q *Queue) PushFixed(v int) { // want PushFixed:`blocks\(channel send\)`
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.ready <- v
}
