package guardinfer

import "sync"

// A pointer set once when the object is built and nil-checked before
// taking the lock that guards what it points to (bbolt's DB.stats:
// "statlock ... Protects stats access", and `if db.stats != nil {
// db.statlock.Lock(); ... }`). Nothing assigns the pointer again, so the
// bare comparison cannot race; the statistics themselves are changed
// through it under the lock. history is the twin: Rotate assigns the
// pointer itself under the lock, and the bare nil-check races with it.
type StatLedger struct {
	statMu  sync.RWMutex // protects stats and history
	stats   *ledgerStats
	history *ledgerStats
}

type ledgerStats struct{ entries, bytes int }

func NewStatLedger(withStats bool) *StatLedger {
	l := &StatLedger{history: &ledgerStats{}}
	if withStats {
		l.stats = &ledgerStats{}
	}
	return l
}

func (l *StatLedger) Append(n int) {
	if l.stats != nil {
		l.statMu.Lock()
		l.stats.entries++
		l.stats.bytes += n
		l.statMu.Unlock()
	}
	if l.history != nil { // want `l.history is documented as guarded by statMu`
		l.statMu.Lock()
		l.history.entries++
		l.statMu.Unlock()
	}
}

func (l *StatLedger) Stats() ledgerStats {
	var s ledgerStats
	if l.stats != nil {
		l.statMu.RLock()
		s = *l.stats
		l.statMu.RUnlock()
	}
	return s
}

func (l *StatLedger) Rotate() {
	l.statMu.Lock()
	l.history = &ledgerStats{}
	l.statMu.Unlock()
}
