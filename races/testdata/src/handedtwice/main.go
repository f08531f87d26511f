// Package handedtwice: a goroutine that releases the lock its spawner
// holds at the go statement (prometheus's summary.asyncFlush: s.mtx.Lock();
// go func() { s.flushColdBuf(); s.mtx.Unlock() }()) runs holding it
// whichever goroutine runs the go statement: here two different ones
// do. Its writes are no race with the code that takes the lock; a read
// without the lock is.
package main

import "sync"

type summary struct {
	bufMtx  sync.Mutex
	mtx     sync.Mutex
	hotBuf  []float64
	coldBuf []float64
	cnt     int
}

func (s *summary) Observe(v float64) {
	s.bufMtx.Lock()
	defer s.bufMtx.Unlock()
	if len(s.hotBuf) > 10 {
		s.asyncFlush()
	}
	s.hotBuf = append(s.hotBuf, v)
}

func (s *summary) asyncFlush() {
	s.mtx.Lock()
	s.swapBufs()
	go func() {
		s.flushColdBuf()
		s.mtx.Unlock()
	}()
}

func (s *summary) swapBufs() {
	s.hotBuf, s.coldBuf = s.coldBuf, s.hotBuf // under bufMtx and mtx: not reported
}

func (s *summary) flushColdBuf() {
	for range s.coldBuf {
		s.cnt++ // under the handed mtx; the read below takes no lock
	}
	s.coldBuf = s.coldBuf[0:0] // under the handed mtx: not reported
}

func main() {
	s := &summary{}
	go func() {
		for {
			s.Observe(1)
		}
	}()
	go func() {
		for {
			s.Observe(2)
			_ = s.cnt // want `summary.cnt read in main func literal 2 .* races with its write in summary.flushColdBuf`
		}
	}()
	select {}
}
