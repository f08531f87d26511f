package guardinfer

import (
	"net"
	"sync"
)

// TCPProxy.Run fills remotes before it starts the goroutines that read
// it, and only those goroutines' code reads it: the go statements order
// the bare appends before every read, so they are silent although mu's
// comment says it guards remotes (etcd's tcpproxy). LoosePeers is the
// twin: an exported method reads peers too, at any time, and Run's bare
// append is reported.
type TCPProxy struct {
	Listener  net.Listener
	Endpoints []string

	mu      sync.Mutex // guards the following fields
	remotes []string
	picks   int
}

func (tp *TCPProxy) Run() error {
	for _, ep := range tp.Endpoints {
		tp.remotes = append(tp.remotes, ep)
	}
	go tp.monitor()
	for {
		in, err := tp.Listener.Accept()
		if err != nil {
			return err
		}
		go tp.serve(in)
	}
}

func (tp *TCPProxy) pick() string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.picks++
	return tp.remotes[tp.picks%len(tp.remotes)]
}

func (tp *TCPProxy) serve(in net.Conn) {
	_ = tp.pick()
	in.Close()
}

func (tp *TCPProxy) monitor() {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for range tp.remotes {
		tp.picks = 0
	}
}

type LoosePeers struct {
	Endpoints []string

	mu    sync.Mutex // guards the following fields
	peers []string
}

func (lp *LoosePeers) Run() {
	for _, ep := range lp.Endpoints {
		lp.peers = append(lp.peers, ep) // want `lp.peers is documented as guarded by mu \("guards the following fields" at startfirst.go:\d+\), but lp.mu is not held here`
	}
	go lp.monitor()
}

func (lp *LoosePeers) monitor() {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	lp.peers = lp.peers[:0]
}

func (lp *LoosePeers) Peers() []string {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return append([]string(nil), lp.peers...)
}
