// want package:`edges\(S\.mu -> S\.statsMu, S\.statsMu -> S\.mu, Ledger\.mu -> Account\.mu, Account\.mu -> Ledger\.mu, Ledger\.mu -> Pool\.Mu, Pool\.Mu -> Ledger\.mu\)`

// Package a has three lock-order cycles, each reported with the
// //guard:order line that declares one order: on the type for two locks
// of one type, qualified on a var declaration for locks of two types, and
// with the file's import name for a lock of another package. Package
// fixed is this package with those lines written: what is left is the
// declared order's violation, at the other end of each cycle.
package a

import (
	"sync"

	dp "orderhint/dep"
)

type S struct {
	mu, statsMu sync.Mutex
	n, hits     int //guard:by mu
}

func (s *S) A() { // want A:`acquires\(s\.mu, s\.statsMu\)`
	s.mu.Lock()
	s.statsMu.Lock() // want `potential deadlock: S.statsMu is acquired here \(s.statsMu\) while S.mu is held \(s.mu\), but elsewhere the order is reversed \(S.statsMu then S.mu at a.go:31\); pick one order and declare it on type S: //guard:order mu statsMu`
	s.statsMu.Unlock()
	s.mu.Unlock()
}

func (s *S) B() { // want B:`acquires\(s\.statsMu, s\.mu\)`
	s.statsMu.Lock()
	s.mu.Lock()
	s.mu.Unlock()
	s.statsMu.Unlock()
}

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
	a.mu.Lock() // want `potential deadlock: .*; pick one order and declare it on a package-level var declaration or a type's doc: //guard:order Ledger.mu Account.mu$`
	a.mu.Unlock()
	l.mu.Unlock()
}

func Audit(l *Ledger, a *Account) { // want Audit:`acquires\(a\.mu, l\.mu\)`
	a.mu.Lock()
	l.mu.Lock()
	l.mu.Unlock()
	a.mu.Unlock()
}

func Take(p *dp.Pool, l *Ledger) { // want Take:`acquires\(l\.mu, p\.Mu\)`
	l.mu.Lock()
	p.Mu.Lock() // want `potential deadlock: .*; pick one order and declare it on a package-level var declaration or a type's doc: //guard:order Ledger.mu dp.Pool.Mu$`
	p.Mu.Unlock()
	l.mu.Unlock()
}

func Give(p *dp.Pool, l *Ledger) { // want Give:`acquires\(p\.Mu, l\.mu\)`
	p.Mu.Lock()
	l.mu.Lock()
	l.mu.Unlock()
	p.Mu.Unlock()
}
