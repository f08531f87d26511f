// Package related has three findings, two of them with a related position
// on another line: a lock-order inversion (where the other lock was taken)
// and an unlock of a lock not held (where it was released). guardvet's
// golangci-lint integration test expects them at these exact lines; keep
// them in place.
package related

import "sync"

// Account is locked before Ledger in Post.
type Account struct {
	mu      sync.Mutex
	balance int //guard:by mu
}

// Ledger is locked after Account in Post, and before it in Audit.
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

// Close unlocks twice.
func Close(a *Account) {
	a.mu.Lock()
	a.balance = 0
	a.mu.Unlock()
	a.mu.Unlock()
}

// Peek reads the balance without the lock.
func Peek(a *Account) int {
	return a.balance
}
