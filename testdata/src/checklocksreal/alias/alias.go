// Package alias reproduces the shapes of gVisor's +checklocksalias uses
// (pkg/tcpip/network/ipv4, network/ipv6, transport/tcp): a struct holds a
// sub-state that points back at its owner, and the sub-state's methods
// name the owner's lock through that pointer.
package alias

import "sync"

// ipv4 shape: igmp.ep.mu is e.mu.
//
// +checklocksalias:igmp.ep.mu=mu
type endpoint struct {
	mu sync.RWMutex

	// +checklocks:mu
	addrs int

	igmp igmpState
}

type igmpState struct {
	ep *endpoint

	// +checklocks:ep.mu
	mode int
}

// +checklocks:igmp.ep.mu
func (igmp *igmpState) setVersion(v int) {
	igmp.mode = v
	igmp.ep.addrs++
}

// +checklocksread:igmp.ep.mu
func (igmp *igmpState) version() int { return igmp.mode }

// The contract names the lock through the sub-state; the caller holds it
// under its own name.
//
// +checklocks:e.mu
func (e *endpoint) setVersionLocked(v int) {
	e.igmp.setVersion(v)
	e.igmp.mode = v
}

func (e *endpoint) SetVersion(v int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.igmp.setVersion(v)
	_ = e.igmp.version()
}

func (e *endpoint) Version() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.igmp.version()
}

// Holding the lock under the sub-state's name covers the owner's fields.
//
// +checklocks:igmp.ep.mu
func (igmp *igmpState) touchOwner() { igmp.ep.addrs = 0 }

func (e *endpoint) viaSubState() {
	e.igmp.ep.mu.Lock()
	e.addrs++
	e.setVersionLocked(1)
	e.igmp.ep.mu.Unlock()
}

// Still reported: nothing held.
func (e *endpoint) Unlocked(v int) {
	e.igmp.setVersion(v) // want `call to e.igmp.setVersion needs e.igmp.ep.mu locked \(//guard:holds igmp.ep.mu\), but e.igmp.ep.mu is not known to be held here`
	e.igmp.mode = v      // want `e.igmp.mode written while e.igmp.ep.mu is not known to be held`
}

// Still reported: a read lock where the contract needs the write lock.
func (e *endpoint) ReadLocked(v int) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	e.igmp.setVersion(v) // want `call to e.igmp.setVersion needs e.igmp.ep.mu locked \(//guard:holds igmp.ep.mu\), but e.igmp.ep.mu is read-locked here`
}

// Still reported: the alias equates the paths of one instance, not of two.
func (e *endpoint) OtherInstance(o *endpoint, v int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	o.igmp.setVersion(v) // want `call to o.igmp.setVersion needs o.igmp.ep.mu locked`
}

// Returns with the lock held under either name: the contract is kept.
//
// +checklocksacquire:e.mu
func (e *endpoint) lockViaSubState() { e.igmp.ep.mu.Lock() }

// +checklocksrelease:igmp.ep.mu
func (igmp *igmpState) unlockOwner() { igmp.ep.mu.Unlock() }

func (e *endpoint) lockUnlock() {
	e.lockViaSubState()
	e.addrs++
	e.igmp.unlockOwner()
	e.addrs-- // want `e.addrs written while e.mu is not held`
}

// ipv6 shape: the sub-states live inside a mutex-embedding struct, and
// the equation names the embedded RWMutex.
//
// +checklocksalias:mu.ndp.ep.mu.RWMutex=mu.RWMutex
// +checklocksalias:mu.mld.ep.mu.RWMutex=mu.RWMutex
type endpoint6 struct {
	mu endpointMu
}

type endpointMu struct {
	sync.RWMutex

	// +checklocks:RWMutex
	ndp ndpState

	// +checklocks:RWMutex
	mld mldState
}

type ndpState struct {
	ep *endpoint6

	// +checklocks:ep.mu.RWMutex
	routers int
}

type mldState struct {
	ep *endpoint6
}

// +checklocks:ndp.ep.mu.RWMutex
func (ndp *ndpState) handleRA() {
	ndp.routers++
	ndp.ep.mu.mld.sendReports()
}

// +checklocks:mld.ep.mu.RWMutex
func (mld *mldState) sendReports() {}

func (e *endpoint6) HandleRA() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mu.ndp.handleRA()
	e.mu.mld.sendReports()
	e.mu.ndp.routers = 0
}

func (e *endpoint6) HandleRAUnlocked() {
	e.mu.ndp.handleRA() // want `e.mu.ndp read while e.mu.RWMutex is not known to be held` `call to e.mu.ndp.handleRA needs e.mu.ndp.ep.mu.RWMutex locked`
}

// tcp shape: the equation is declared on both types of a cycle, and the
// guard of a field of the sub-state names the owner's lock.
//
// +checklocksalias:snd.ep.mu=mu
type Endpoint struct {
	mu  sync.Mutex
	snd *sender
}

// +checklocksalias:rc.snd.ep.mu=ep.mu
type sender struct {
	ep *Endpoint

	// +checklocks:ep.mu
	writeList []int

	rc *rackControl
}

type rackControl struct {
	snd *sender
}

// +checklocks:s.ep.mu
func (s *sender) sendData() {
	s.writeList = nil
	s.rc.update()
}

// +checklocks:rc.snd.ep.mu
func (rc *rackControl) update() { rc.snd.writeList = nil }

func (e *Endpoint) Send() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.snd.sendData()
	e.snd.writeList = append(e.snd.writeList, 1)
	e.snd.rc.update()
}

func (e *Endpoint) SendUnlocked() {
	e.snd.writeList = nil // want `e.snd.writeList written while e.snd.ep.mu is not known to be held`
}

// Without an equation nothing is assumed: t.other.mu is another lock.
type plain struct {
	mu    sync.Mutex
	other *plain

	// +checklocks:mu
	n int
}

// +checklocks:p.other.mu
func (p *plain) otherLocked() {}

func (p *plain) NoAlias() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.otherLocked() // want `call to p.otherLocked needs p.other.mu locked`
}

// Exported for the use package: the equation travels as a fact.
//
// +checklocksalias:Sub.Owner.Mu=Mu
type Owner struct {
	Mu  sync.Mutex
	Sub *Sub
}

type Sub struct {
	Owner *Owner
}

// +checklocks:s.Owner.Mu
func (s *Sub) Touch() {}
