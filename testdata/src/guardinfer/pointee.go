package guardinfer

import "sync"

// A pointer field set once, when the object is built, whose pointee is
// filled in later under the lock: link.peer.name = n writes the peer's
// name, not link.peer, which no one assigns again (nats-server's
// client.route). A read of link.peer without the lock does not race with
// those writes; whether the peer's own fields are guarded is the peer
// type's question. current is the twin: it is assigned under the lock
// itself, and the bare read is reported.
type peerInfo struct {
	name string
	hops int
}

type PeerLink struct {
	mu      sync.Mutex
	peer    *peerInfo
	current *peerInfo
}

func NewPeerLink() *PeerLink { return &PeerLink{peer: &peerInfo{}, current: &peerInfo{}} }

func (l *PeerLink) Rename(n string) {
	l.mu.Lock()
	l.peer.name = n
	l.current = &peerInfo{name: n}
	l.mu.Unlock()
}

func (l *PeerLink) Hop() {
	l.mu.Lock()
	l.peer.hops++
	l.current = l.peer
	l.mu.Unlock()
}

func (l *PeerLink) Reset() {
	l.mu.Lock()
	l.peer.hops = 0
	l.current = nil
	l.mu.Unlock()
}

func (l *PeerLink) Name() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peer.name + l.current.name
}

func (l *PeerLink) Hops() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peer.hops + l.current.hops
}

func (l *PeerLink) Same() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peer == l.current
}

func (l *PeerLink) Swap() {
	l.mu.Lock()
	l.peer.name, l.current.name = l.current.name, l.peer.name
	l.mu.Unlock()
}

func (l *PeerLink) Peer() *peerInfo {
	return l.peer
}

func (l *PeerLink) Current() *peerInfo {
	return l.current // want `l.current is read here with no lock held \(in exported PeerLink.Current\), and written at pointee.go:28 with l.mu held`
}
