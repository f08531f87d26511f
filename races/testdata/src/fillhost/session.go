// Package fillhost fills a new Host per row through helpers before the
// session keeps it (gocql's hostInfoFromMap and isValidPeer): the helper
// hands back the Host it was given, a method of it unlocks with defer
// and panics with a message naming it, and the loop logs the last row's
// host before the next row's is made. None of that hands a Host to
// another goroutine before the session stores it under its lock, so the
// filling races with nothing; a write to a kept Host with no lock does.
package fillhost

import (
	"fmt"
	"sync"
)

type Host struct {
	mu   sync.RWMutex
	id   string
	addr string
	dc   string
}

// Addr reads the address under the host's lock, and panics naming the
// host when it has none.
func (h *Host) Addr() string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.addr == "" {
		panic(fmt.Sprintf("no address for host %v", h))
	}
	return h.addr
}

// SetID sets the ID under the host's lock.
func (h *Host) SetID(id string) {
	h.mu.Lock()
	h.id = id
	h.mu.Unlock()
}

// fill sets up the host it is given and hands it back.
func fill(row map[string]string, h *Host) (*Host, error) {
	h.id = row["id"] // no race: a new host, nobody else's yet
	h.dc = row["dc"]
	if h.Addr() == "" {
		return nil, fmt.Errorf("no address")
	}
	return h, nil
}

func valid(h *Host) bool {
	return h.id != "" && h.dc != ""
}

type Session struct {
	mu    sync.Mutex
	log   []string
	hosts []*Host
}

// Refresh makes a host per row and keeps the valid ones.
func (s *Session) Refresh(rows []map[string]string) {
	for _, row := range rows {
		h, err := fill(row, &Host{addr: "a"})
		if err != nil {
			return
		}
		if !valid(h) {
			s.logf("invalid host %v", h)
			continue
		}
		s.mu.Lock()
		s.hosts = append(s.hosts, h)
		s.mu.Unlock()
	}
}

func (s *Session) logf(format string, args ...any) {
	s.mu.Lock()
	s.log = append(s.log, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// Rename writes a kept host's ID with no lock.
func (s *Session) Rename(i int, id string) {
	s.mu.Lock()
	h := s.hosts[i]
	s.mu.Unlock()
	h.id = id // want `Host.id written in Session.Rename .* races with its write in Host.SetID`
}
