package library

import "sync"

// etcd's token keeper, silent: the keeper's mu points at the store's
// tokensMu, so keeper.mu.Lock() and s.tokensMu.Lock() take one lock.

type keeper struct {
	mu     *sync.Mutex
	tokens map[string]int
}

func (k *keeper) add(tok string) { k.tokens[tok]++ }

func (k *keeper) run() {
	k.mu.Lock()
	for t := range k.tokens {
		delete(k.tokens, t)
	}
	k.mu.Unlock()
}

type Store struct {
	tokensMu sync.Mutex
	keeper   *keeper
}

func (s *Store) Enable() {
	s.tokensMu.Lock()
	defer s.tokensMu.Unlock()
	s.keeper = &keeper{mu: &s.tokensMu, tokens: map[string]int{}}
	go s.keeper.run()
}

func (s *Store) Assign(tok string) {
	s.tokensMu.Lock()
	defer s.tokensMu.Unlock()
	s.keeper.add(tok)
}
