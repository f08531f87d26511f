// Package noblock covers blocking operations under a //guard:noblock lock.
package noblock

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

type Session struct {
	ptmxMu sync.Mutex //guard:noblock
	ptmx   *os.File   //guard:by ptmxMu
	cmd    *exec.Cmd  //guard:by ptmxMu

	outMu sync.Mutex // not noblock: blocking under it is allowed
	out   chan []byte
}

// The fixed shape: snapshot under the lock, close outside it.
func (s *Session) Close() { // want Close:`blocks\(f\.Close\)`
	s.ptmxMu.Lock()
	f, cmd := s.ptmx, s.cmd
	s.ptmx, s.cmd = nil, nil
	s.ptmxMu.Unlock()
	f.Close()
	cmd.Wait()
}

// The pre-fix shape: Close and Wait under ptmxMu.
func (s *Session) CloseLocked() { // want CloseLocked:`blocks\(s\.ptmx\.Close\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.ptmx.Close() // want `s.ptmx.Close can block while s.ptmxMu is held \(//guard:noblock\); copy what you need under the lock, release s.ptmxMu, then block`
	s.cmd.Wait()   // want `s.cmd.Wait can block while s.ptmxMu is held`
}

func (s *Session) Table() { // want Table:`blocks\(channel send\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	time.Sleep(time.Millisecond) // want `time.Sleep can block while s.ptmxMu is held`
	var wg sync.WaitGroup
	wg.Wait()                   // want `wg.Wait can block while s.ptmxMu is held`
	io.Copy(io.Discard, s.ptmx) // want `io.Copy can block while s.ptmxMu is held`
	s.out <- nil                // want `channel send can block while s.ptmxMu is held`
	<-s.out                     // want `channel receive can block while s.ptmxMu is held`
	for range s.out {           // want `range over a channel can block while s.ptmxMu is held`
	}
	select { // want `select without a default case can block while s.ptmxMu is held`
	case s.out <- nil:
	case <-s.out:
	}
	select { // a default case: never blocks
	case s.out <- nil:
	default:
	}
}

// flush blocks two calls down; the chain is named.
func (s *Session) flush() { s.drain() } // want flush:`blocks\(s\.drain -> channel receive\)`

func (s *Session) drain() { <-s.out } // want drain:`blocks\(channel receive\)`

func (s *Session) Flush() { // want Flush:`blocks\(s\.flush -> s\.drain -> channel receive\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	s.flush() // want `channel receive \(through s.flush -> s.drain\) can block while s.ptmxMu is held`
}

//guard:blocks
func waitForPeer() {} // want waitForPeer:`blocks\(waitForPeer \(//guard:blocks\)\)`

func (s *Session) Declared() { // want Declared:`blocks\(waitForPeer \(//guard:blocks\)\)`
	s.ptmxMu.Lock()
	defer s.ptmxMu.Unlock()
	waitForPeer() // want `waitForPeer \(//guard:blocks\) can block while s.ptmxMu is held`
}

// Blocking under a lock that is not noblock is not this rule's business.
func (s *Session) Other() { // want Other:`blocks\(channel send\)`
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.out <- nil
}

// Nothing held: nothing to report.
func (s *Session) Free() { // want Free:`blocks\(channel receive\)`
	<-s.out
	time.Sleep(time.Millisecond)
}
