package guardinfer

import "sync"

// A type defined from another shares its fields and its lock: the ack
// handler converts itself back, (*SendBuf)(h).pending(), to call a helper
// whose every call holds the lock, through one type or the other (quic-go's
// sendStreamAckHandler). The helper's reads are under the lock.
// behind is the twin: its one caller, through the conversion too, holds
// nothing, and it is reported.
type SendBuf struct {
	mu     sync.Mutex
	queued int
	acked  int
}

type sendBufAck SendBuf

func (s *SendBuf) Write(n int) {
	s.mu.Lock()
	s.queued += n
	done := s.pending()
	s.mu.Unlock()
	_ = done
}

func (s *SendBuf) Flush() {
	s.mu.Lock()
	s.queued = 0
	s.acked = 0
	s.mu.Unlock()
}

func (s *SendBuf) Stats() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queued, s.acked
}

func (s *SendBuf) Lost() {
	s.mu.Lock()
	s.queued++
	s.acked--
	s.mu.Unlock()
}

func (s *SendBuf) Retry() {
	s.mu.Lock()
	s.acked = s.queued
	s.mu.Unlock()
}

func (s *SendBuf) Cancel() {
	s.mu.Lock()
	s.acked, s.queued = 0, 0
	s.mu.Unlock()
}

func (s *SendBuf) Acked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.acked
}

func (s *SendBuf) Queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queued
}

func (s *SendBuf) Rewind() {
	s.mu.Lock()
	s.queued += s.acked
	s.acked = 0
	s.mu.Unlock()
}

func (s *SendBuf) Skip(n int) {
	s.mu.Lock()
	s.queued -= n
	s.acked += n
	s.mu.Unlock()
}

func (s *SendBuf) pending() bool { return s.queued > 0 }

func (s *SendBuf) behind() bool { return s.acked < 0 } // want `s.acked is accessed with s.mu held at \d+ of \d+ sites`

func (h *sendBufAck) OnAcked() {
	h.mu.Lock()
	h.acked++
	done := (*SendBuf)(h).pending()
	h.mu.Unlock()
	_ = done
}

func (h *sendBufAck) OnLost() {
	h.mu.Lock()
	h.queued++
	h.mu.Unlock()
}

func (h *sendBufAck) Behind() bool {
	return (*SendBuf)(h).behind()
}

func (s *SendBuf) Handler() *sendBufAck { return (*sendBufAck)(s) }

func StartAcks(s *SendBuf) {
	h := s.Handler()
	go h.OnAcked()
	go h.OnLost()
}
