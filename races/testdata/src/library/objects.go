package library

import "sync"

// Raft's shapes, silent: an exported method's own objects (a future it
// makes, sets up through its methods and waits on; a config value filled
// in by a method), a lock of another instance of the same type taken and
// released while the first is still held, and an unexported type whose
// exported-named methods nothing outside the package can call.

type future struct {
	err   error
	errCh chan error
	done  bool
}

func (f *future) init() { f.errCh = make(chan error, 1) }

func (f *future) Error() error {
	if f.err != nil {
		return f.err
	}
	f.err = <-f.errCh
	f.done = true
	return f.err
}

type Node struct {
	mu      sync.Mutex
	applyCh chan *future
	conf    Config
	logs    []string
}

func (n *Node) Apply() error {
	f := &future{}
	f.init()
	n.applyCh <- f
	return f.Error()
}

// Snapshot fills in a value of its own through a method.
func (n *Node) Snapshot() Config {
	n.mu.Lock()
	defer n.mu.Unlock()
	var c Config
	c.fill(n.conf.name)
	return c
}

func (c *Config) fill(name string) { c.name = name }

// Same compares two nodes, holding the first's lock throughout.
func (n *Node) Same(other *Node) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	other.mu.Lock()
	m := len(other.logs)
	other.mu.Unlock()
	return m == len(n.logs)
}

func (n *Node) Append(s string) {
	n.mu.Lock()
	n.logs = append(n.logs, s)
	n.mu.Unlock()
}

type cluster struct {
	mu    sync.Mutex
	nodes []*Node
}

func (c *cluster) Merge(o *cluster) { c.nodes = append(c.nodes, o.nodes...) }

func (c *cluster) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.nodes)
}
