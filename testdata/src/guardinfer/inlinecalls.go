package guardinfer

import "sync"

// A helper called from a closure that its function calls twice: the
// engine follows the closure at each call, so the helper's one call shows
// up once per context. Callers are counted by call, so peekTotal, whose
// only call holds l.mu, runs under it. peekSpare is the twin: its one call
// is made after the unlock, and it is reported.
type AuditBook struct {
	mu    sync.Mutex
	total int
	spare int
}

func (l *AuditBook) A1() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A2() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A3() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A4() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A5() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A6() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A7() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A8() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A9() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A10() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) A11() {
	l.mu.Lock()
	l.total++
	l.spare--
	l.mu.Unlock()
}

func (l *AuditBook) peekTotal() int { return l.total }

func (l *AuditBook) peekSpare() int { return l.spare } // want `l.spare is accessed with l.mu held at \d+ of \d+ sites`

func (l *AuditBook) Audit() int {
	sum := 0
	check := func() {
		l.mu.Lock()
		sum += l.peekTotal()
		l.mu.Unlock()
		sum += l.peekSpare()
	}
	check()
	check()
	return sum
}

func (l *AuditBook) Spare(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.spare += n
}

func (l *AuditBook) Spares() [10]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return [10]int{l.spare, l.spare, l.spare, l.spare, l.spare, l.spare, l.spare, l.spare, l.spare, l.spare}
}
