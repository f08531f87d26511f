// Package deplock: lock types of a library, as go-deadlock's Mutex and
// xsync's RBMutex are to their users (fixture deplockuse imports it, so
// there it is a dependency, without bodies). Named alone, it has nothing
// to report.
package deplock

import "sync"

// Mutex is a sync.Locker.
type Mutex struct{ mu sync.Mutex }

func (m *Mutex) Lock()   { m.mu.Lock() }
func (m *Mutex) Unlock() { m.mu.Unlock() }

// Token is what RBMutex's RLock returns and RUnlock takes back.
type Token struct{ slot int }

// RBMutex is a reader-biased RWMutex whose read side hands out tokens.
type RBMutex struct{ rw sync.RWMutex }

func (m *RBMutex) RLock() *Token    { m.rw.RLock(); return &Token{} }
func (m *RBMutex) RUnlock(t *Token) { m.rw.RUnlock() }
func (m *RBMutex) Lock()            { m.rw.Lock() }
func (m *RBMutex) Unlock()          { m.rw.Unlock() }
