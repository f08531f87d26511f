// Package snapshot replaces its guarded slice and never writes it in
// place, so a copy taken under the lock is a snapshot (docs/rules/escape.md).
package snapshot

import "sync"

type Log struct {
	mu      sync.Mutex
	entries []string //guard:by mu
}

func (l *Log) Add(e string) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	l.mu.Unlock()
}

func (l *Log) Count() int {
	l.mu.Lock()
	es := l.entries
	l.mu.Unlock()
	return len(es) // exception: es is a snapshot; the package never writes the slice in place
}
