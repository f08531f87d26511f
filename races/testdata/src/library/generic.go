package library

import "sync"

// Stack is generic: its package never instantiates it, so its methods
// are analysed in their generic bodies. They lock its mutex, so they are
// roots like any concurrent type's.
type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

func (s *Stack[T]) Push(x T) {
	s.mu.Lock()
	s.items = append(s.items, x)
	s.mu.Unlock()
}

// Len forgets the lock.
func (s *Stack[T]) Len() int {
	return len(s.items) // want `Stack.items read in Stack.Len .* races with its write in Stack.Push`
}
