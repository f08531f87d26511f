// Package inversion takes two locks in both orders: one lock-order finding,
// whose related position is where the other lock was taken. The plugin's
// tests expect it at these exact lines; keep them in place.
package inversion

import "sync"

// Account is locked before Ledger in Post.
type Account struct {
	mu      sync.Mutex
	balance int //guard:by mu
}

// Ledger is locked before Account in Audit.
type Ledger struct {
	mu sync.Mutex
}

// Post locks the account, then the ledger.
func Post(a *Account, l *Ledger) {
	a.mu.Lock()
	l.mu.Lock()
	a.balance++
	l.mu.Unlock()
	a.mu.Unlock()
}

// Audit locks the ledger, then the account: the reverse order.
func Audit(a *Account, l *Ledger) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Peek reads the balance for a log line; a stale value is fine.
func Peek(a *Account) int {
	return a.balance //guard:ignore a stale balance is fine in a log line
}
