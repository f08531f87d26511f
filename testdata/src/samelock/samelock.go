// Package samelock covers one lock named by two paths, for the checks of
// guarded accesses: a local defined from a path names that path until
// either is assigned, and hand over hand moves from one lock to the next.
// (samelock/order covers the lock-order side.)
package samelock

import "sync"

// Hand over hand, without defer, moves from one lock to the next.
type node struct {
	mu   sync.Mutex
	next *node
	val  int // +checklocks:mu
}

func walk(n *node) int {
	n.mu.Lock()
	for n.next != nil {
		next := n.next
		next.mu.Lock()
		n.mu.Unlock()
		n = next
	}
	v := n.val
	n.mu.Unlock()
	return v
}

// A local defined from a path names it until one of them is assigned:
// here the store comes after every use of the local.
func (d *dentry) refresh(fresh *inode) int {
	i := d.in
	i.handleMu.Lock()
	n := d.in.handle
	i.handleMu.Unlock()
	d.in = fresh
	return n
}

// Stored before a use of the local: from there on the local may name the
// old inode, so its lock does not cover the new one.
func (d *dentry) swapIn(fresh *inode) int {
	i := d.in
	d.in = fresh
	i.handleMu.Lock()
	n := d.in.handle // want `d.in.handle read while d.in.handleMu is not known to be held`
	i.handleMu.Unlock()
	return n
}

// The same with the store after the use in the source, but inside a loop
// around the use: the next iteration uses the local after the store.
func (d *dentry) cycle(fresh *inode, k int) int {
	n := 0
	i := d.in
	for j := 0; j < k; j++ {
		i.handleMu.Lock()
		n += d.in.handle // want `d.in.handle read while d.in.handleMu is not known to be held`
		i.handleMu.Unlock()
		d.in = fresh
	}
	return n
}

type inode struct {
	handleMu sync.RWMutex
	handle   int // +checklocks:handleMu
}

type dentry struct {
	in *inode
}
