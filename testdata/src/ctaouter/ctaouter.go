// Package ctaouter covers check and act in two critical sections of an
// inner lock inside one critical section of an outer lock of the same
// object, held for writing from one acquisition (gVisor's gofer: parent.opMu
// around the childrenMu sections of a create): no operation that takes
// the outer lock can come in between, so it is one critical section. And
// an atomic Load then Store of a field that every store makes under one
// lock of its object, held here by every caller (overlay's
// updateAfterSetStatLocked under copyMu).
package ctaouter

import (
	"errors"
	"sync"
	"sync/atomic"
)

var errExist = errors.New("exists")

type dentry struct {
	opMu       sync.RWMutex
	childrenMu sync.Mutex
	children   map[string]*dentry // +checklocks:childrenMu
}

// +checklocks:d.childrenMu
func (d *dentry) cacheNewChildLocked(child *dentry, name string) { // want cacheNewChildLocked:`fieldops\(writes d.children under held d.childrenMu\)`
	d.children[name] = child
}

func (parent *dentry) create(name string) error { // want create:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.opMu.Lock()
	defer parent.opMu.Unlock()
	parent.childrenMu.Lock()
	if _, ok := parent.children[name]; ok {
		parent.childrenMu.Unlock()
		return errExist
	}
	parent.childrenMu.Unlock()
	child := &dentry{}
	parent.childrenMu.Lock()
	parent.cacheNewChildLocked(child, name)
	parent.childrenMu.Unlock()
	return nil
}

// The outer lock held by contract: the caller's critical section.
//
// +checklocks:parent.opMu
func (parent *dentry) createLocked(name string) error { // want createLocked:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.childrenMu.Lock()
	_, ok := parent.children[name]
	parent.childrenMu.Unlock()
	if ok {
		return errExist
	}
	parent.childrenMu.Lock()
	parent.children[name] = &dentry{}
	parent.childrenMu.Unlock()
	return nil
}

// A dentry that is also walked with the outer lock read-locked: two
// walkers can both miss and both store, and the create's section of opMu
// does not keep them out of each other.
type walkDentry struct {
	opMu       sync.RWMutex
	childrenMu sync.Mutex
	children   map[string]*walkDentry // +checklocks:childrenMu
	other      *walkDentry
}

func (parent *walkDentry) walk(name string) { // want walk:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.opMu.RLock()
	defer parent.opMu.RUnlock()
	parent.childrenMu.Lock()
	_, ok := parent.children[name]
	parent.childrenMu.Unlock()
	if !ok {
		parent.childrenMu.Lock()
		parent.children[name] = &walkDentry{} // want `check-then-act: parent.children\[name\] was read at line`
		parent.childrenMu.Unlock()
	}
}

// Another object's lock does not serialize this one's writers.
func (parent *walkDentry) createUnderOther(name string) { // want createUnderOther:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.other.opMu.Lock()
	defer parent.other.opMu.Unlock()
	parent.childrenMu.Lock()
	_, ok := parent.children[name]
	parent.childrenMu.Unlock()
	if !ok {
		parent.childrenMu.Lock()
		parent.children[name] = &walkDentry{} // want `check-then-act: parent.children\[name\] was read at line`
		parent.childrenMu.Unlock()
	}
}

// A lock outside the object, the filesystem's renameMu, held for writing
// across both sections: it keeps the other writers out when every write
// of the field holds it (a lock of its class).
type filesystem struct {
	renameMu sync.Mutex
}

type fsDentry struct {
	fs         *filesystem
	childrenMu sync.Mutex
	children   map[string]*fsDentry // +checklocks:childrenMu
}

func (parent *fsDentry) create(name string) { // want create:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.fs.renameMu.Lock()
	defer parent.fs.renameMu.Unlock()
	parent.childrenMu.Lock()
	_, ok := parent.children[name]
	parent.childrenMu.Unlock()
	if !ok {
		parent.childrenMu.Lock()
		parent.children[name] = &fsDentry{}
		parent.childrenMu.Unlock()
	}
}

func (parent *fsDentry) Remove(name string) { // want Remove:`fieldops\(writes parent.children\)`
	parent.fs.renameMu.Lock()
	parent.childrenMu.Lock()
	delete(parent.children, name)
	parent.childrenMu.Unlock()
	parent.fs.renameMu.Unlock()
}

// The same with one writer that does not hold renameMu: the create's
// section of it does not keep that writer out.
type bareDentry struct {
	fs         *filesystem
	childrenMu sync.Mutex
	children   map[string]*bareDentry // +checklocks:childrenMu
}

func (parent *bareDentry) create(name string) { // want create:`fieldops\(reads-internally parent.children, decides-writes parent.children\)`
	parent.fs.renameMu.Lock()
	defer parent.fs.renameMu.Unlock()
	parent.childrenMu.Lock()
	_, ok := parent.children[name]
	parent.childrenMu.Unlock()
	if !ok {
		parent.childrenMu.Lock()
		parent.children[name] = &bareDentry{} // want `check-then-act: parent.children\[name\] was read at line`
		parent.childrenMu.Unlock()
	}
}

func (parent *bareDentry) Evict(name string) { // want Evict:`fieldops\(writes parent.children\)`
	parent.childrenMu.Lock()
	delete(parent.children, name)
	parent.childrenMu.Unlock()
}

type acl struct{ mode uint32 }

type node struct {
	copyMu    sync.Mutex
	accessACL atomic.Pointer[acl]
	mode      atomic.Uint32
	flags     atomic.Uint32
	guard     sync.Mutex
	n         int // +checklocks:guard
}

// updateLocked's every caller holds n.copyMu, and every store of
// accessACL is made holding it: its load and store are one critical
// section.
func (n *node) updateLocked(mode uint32) {
	if old := n.accessACL.Load(); old != nil {
		if mode == 0 {
			n.accessACL.Store(nil)
		} else {
			n.accessACL.Store(&acl{mode: mode})
		}
	}
}

func (n *node) SetMode(mode uint32) {
	n.copyMu.Lock()
	defer n.copyMu.Unlock()
	n.updateLocked(mode)
}

func (n *node) copyUp(a *acl) {
	n.copyMu.Lock()
	n.accessACL.Store(a)
	n.copyMu.Unlock()
}

// flags is stored once without copyMu too: the lock does not order that
// store, so the load and store here can be split by it. (Storing f only
// when the load said the flags differed from f would be idempotent, left
// out by default: see ctalossless.)
func (n *node) setFlagsLocked(f uint32) {
	if old := n.flags.Load(); old == 0 {
		n.flags.Store(f) // want `check-then-act: n.flags.Store runs only after n.flags.Load\(\) said so`
	}
}

func (n *node) SetFlags(f uint32) {
	n.copyMu.Lock()
	n.setFlagsLocked(f)
	n.copyMu.Unlock()
}

func (n *node) ResetFlags() {
	n.flags.Store(0)
}
