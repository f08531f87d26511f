// Package reassign covers assignments that make a path name another
// object while a lock inside the old one is held: the lock held is the old
// object's, so the new one's fields are not protected by it.
package reassign

import "sync"

type C struct {
	mu sync.Mutex
	n  int //guard:by mu
}

// The lock is on the object c named before the assignment.
func switchRoot(c, d *C) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c = d
	c.n++ // want `c.n written while c.mu is not known to be held`
}

type Outer struct {
	inner *C
}

// The same through a field path.
func switchPath(o *Outer, other *C) {
	o.inner.mu.Lock()
	old := o.inner
	o.inner = other
	o.inner.n++ // want `o.inner.n written while o.inner.mu is not known to be held`
	old.mu.Unlock()
}

type Node struct {
	mu   sync.Mutex
	n    int //guard:by mu
	next *Node
}

// Hand-over-hand: the lock taken on next is held under cur's name after
// cur = next.
func handOverHand(head *Node) {
	cur := head
	cur.mu.Lock()
	for cur.next != nil {
		next := cur.next
		next.mu.Lock()
		cur.mu.Unlock()
		cur = next
		cur.n++
	}
	cur.mu.Unlock()
}

// Swapping two locals swaps what is known of their locks.
func swap(a, b *C) {
	a.mu.Lock()
	a, b = b, a
	b.n++
	a.n++ // want `a.n written while a.mu is not known to be held`
	b.mu.Unlock()
}

type Stack struct {
	mu   sync.Mutex
	n    int //guard:by mu
	last *NIC
}

type NIC struct {
	stack *Stack
}

// An assignment cycle in a loop (nic.stack = s, then s.last = nic) moves
// what is known of s's lock to nic.stack, and of nic's paths to s.last,
// on every iteration. The paths this derives are bounded, so the state
// settles, the function is checked, and the lock stays held.
func adopt(s *Stack, nics []*NIC) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, nic := range nics {
		nic.stack = s
		s.last = nic
		s.n++
		nic.stack.n++
		s.last.stack.n++
	}
}

// The same cycle without the lock is still reported, once per access.
func adoptUnlocked(s *Stack, nics []*NIC) {
	for _, nic := range nics {
		nic.stack = s
		s.last = nic
		s.n++ // want `s.n written while s.mu is not known to be held`
	}
}
