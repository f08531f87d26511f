// want package:`edges\(filesystem.syncMu -> inode.handleMu, inode.handleMu -> filesystem.syncMu\)`

// Package order covers lock order through one lock named by two paths: a
// lock and the deferred unlock right after it (gVisor's gofer
// ensureLisafsControlFD), and pointers compared equal (gVisor's
// Stack.SetNICStack). Neither may invent an order edge or a self-deadlock.
package order

import "sync"

type filesystem struct {
	syncMu sync.Mutex
	synced int // +checklocks:syncMu
}

// rwmutex is a lock type whose methods lock a lock inside it, as gVisor's
// sync.RWMutex does: its Unlock releases what is inside the value too.
type rwmutex struct {
	m sync.RWMutex
}

func (rw *rwmutex) Lock()    { rw.m.Lock() } // want Lock:`acquires\(rw.m\)`
func (rw *rwmutex) Unlock()  { rw.m.Unlock() }
func (rw *rwmutex) RLock()   { rw.m.RLock() } // want RLock:`acquires\(rw.m\)`
func (rw *rwmutex) RUnlock() { rw.m.RUnlock() }

type inode struct {
	fs       *filesystem
	handleMu rwmutex
	handle   int // +checklocks:handleMu
}

type directfsInode struct {
	inode
	controlFD int
}

type dentry struct {
	inode *inode
	impl  *directfsInode
}

// ensure locks the handle through the receiver, which embeds the inode,
// and unlocks it through the dentry: one lock, released at the return.
func (i *directfsInode) ensure(d *dentry) { // want ensure:`acquires\(i.inode.handleMu\)`
	i.handleMu.Lock()
	defer d.inode.handleMu.Unlock()
	i.handle++
}

// bind takes syncMu after ensure: handleMu is no longer held, so there is
// no handleMu-then-syncMu order.
func (i *directfsInode) bind(d *dentry) { // want bind:`acquires\(i.inode.fs.syncMu, i.inode.handleMu\)`
	i.ensure(d)
	i.fs.syncMu.Lock()
	i.fs.synced++
	i.fs.syncMu.Unlock()
}

// release takes them in the documented order.
func (fs *filesystem) release(i *inode) { // want release:`acquires\(fs.syncMu, i.handleMu\)`
	fs.syncMu.Lock()
	i.handleMu.Lock() // want `potential deadlock: inode.handleMu is acquired here \(i.handleMu\) while filesystem.syncMu is held \(fs.syncMu\), but elsewhere the order is reversed \(inode.handleMu then filesystem.syncMu at order.go:80\)`
	i.handle = 0
	fs.synced--
	i.handleMu.Unlock()
	fs.syncMu.Unlock()
}

// When the deferred unlock names a lock already held, it releases that
// one: the lock just taken stays held, and so is ordered before syncMu.
func (i *directfsInode) keep(other *inode) { // want keep:`acquires\(other.handleMu, i.inode.handleMu\)`
	other.handleMu.Lock()
	i.handleMu.Lock()
	defer other.handleMu.Unlock()
}

func (i *directfsInode) bindKept(other *inode) { // want bindKept:`acquires\(i.inode.fs.syncMu, other.handleMu, i.inode.handleMu\)`
	i.keep(other)
	i.fs.syncMu.Lock()
	i.fs.synced++
	i.fs.syncMu.Unlock()
	i.handleMu.Unlock()
}

type Stack struct {
	mu   sync.Mutex
	nics map[int]int // +checklocks:mu
}

// Move hands a NIC to peer. When peer is s, s.mu is released through s,
// and so through peer: nothing is held at any return.
func (s *Stack) Move(id int, peer *Stack) (int, error) { // want Move:`acquires\(s.mu, peer.mu\)`
	s.mu.Lock()
	if s == peer {
		s.mu.Unlock()
		return id, nil
	}
	delete(s.nics, id)
	s.mu.Unlock()
	return id, peer.add(id)
}

func (s *Stack) add(id int) error { // want add:`acquires\(s.mu\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nics[id] = id
	return nil
}

func (s *Stack) Has(id int) bool { // want Has:`acquires\(s.mu\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.nics[id]
	return ok
}

func rehome(src, dst *Stack) (bool, error) { // want rehome:`acquires\(src.mu, dst.mu\)`
	id, err := src.Move(1, dst)
	if err != nil {
		return false, err
	}
	return dst.Has(id), nil
}
