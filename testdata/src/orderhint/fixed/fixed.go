// want package:`edges\(S\.mu -> S\.statsMu, S\.statsMu -> S\.mu, Ledger\.mu -> Account\.mu, Account\.mu -> Ledger\.mu, Ledger\.mu -> Pool\.Mu, Pool\.Mu -> Ledger\.mu\)`

// Package fixed is package a with the //guard:order lines its findings
// give written: each cycle is now a violation of the declared order, at
// the end that takes the locks the other way.
package fixed

import (
	"sync"

	dp "orderhint/dep"
)

//guard:order mu statsMu
type S struct {
	mu, statsMu sync.Mutex
	n, hits     int //guard:by mu
}

func (s *S) A() { // want A:`acquires\(s\.mu, s\.statsMu\)`
	s.mu.Lock()
	s.statsMu.Lock()
	s.statsMu.Unlock()
	s.mu.Unlock()
}

func (s *S) B() { // want B:`acquires\(s\.statsMu, s\.mu\)`
	s.statsMu.Lock()
	s.mu.Lock() // want `lock order violation: S.mu acquired while S.statsMu is held, but //guard:order in fixed.S puts S.mu first`
	s.mu.Unlock()
	s.statsMu.Unlock()
}

//guard:order Ledger.mu Account.mu
//guard:order Ledger.mu dp.Pool.Mu
type Ledger struct {
	mu    sync.Mutex
	total int //guard:by mu
}

type Account struct {
	mu  sync.Mutex
	bal int //guard:by mu
}

func Transfer(l *Ledger, a *Account) { // want Transfer:`acquires\(l\.mu, a\.mu\)`
	l.mu.Lock()
	a.mu.Lock()
	a.mu.Unlock()
	l.mu.Unlock()
}

func Audit(l *Ledger, a *Account) { // want Audit:`acquires\(a\.mu, l\.mu\)`
	a.mu.Lock()
	l.mu.Lock() // want `lock order violation: Ledger.mu acquired while Account.mu is held`
	l.mu.Unlock()
	a.mu.Unlock()
}

func Take(p *dp.Pool, l *Ledger) { // want Take:`acquires\(l\.mu, p\.Mu\)`
	l.mu.Lock()
	p.Mu.Lock()
	p.Mu.Unlock()
	l.mu.Unlock()
}

func Give(p *dp.Pool, l *Ledger) { // want Give:`acquires\(p\.Mu, l\.mu\)`
	p.Mu.Lock()
	l.mu.Lock() // want `lock order violation: Ledger.mu acquired while Pool.Mu is held`
	l.mu.Unlock()
	p.Mu.Unlock()
}
