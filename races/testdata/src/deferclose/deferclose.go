// Command deferclose: a session's loop records why it ended, in a
// literal it calls on the way or in the one it defers, and the deferred
// literal then closes the session's done channel (go-amqp's Session.mux).
// A reader that waits for done before reading the error is ordered after
// every write of it: the deferred literal closes done on its way to
// every return, after the loop's writes. Err, reading the error without
// waiting, is reported.
package main

import (
	"errors"
	"time"
)

type Session struct {
	done    chan struct{}
	doneErr error
	tx      chan int
}

func (s *Session) mux() {
	defer func() {
		if s.doneErr == nil {
			s.doneErr = errors.New("session ended")
		} else {
			s.doneErr = errors.Join(errors.New("session failed"), s.doneErr)
		}
		close(s.done)
	}()
	closeWithError := func(err error) {
		s.doneErr = err
	}
	for n := range s.tx {
		if n < 0 {
			closeWithError(errors.New("negative"))
			return
		}
	}
}

// Wait returns why the session ended, once it has.
func (s *Session) Wait() error {
	select {
	case <-s.done:
		return s.doneErr
	case <-time.After(time.Minute):
		return errors.New("timeout")
	}
}

// Err peeks at the error with no wait.
func (s *Session) Err() error {
	return s.doneErr // want `Session.doneErr read in Session.Err .* races with its write in Session.mux func literal`
}

func main() {
	s := &Session{done: make(chan struct{}), tx: make(chan int)}
	go s.mux()
	go s.Wait()
	go s.Err()
	s.tx <- -1
	time.Sleep(time.Second)
}
