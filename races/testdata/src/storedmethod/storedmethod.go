// Package storedmethod is a library whose methods run at once (they take
// the client's lock). A client's process hook is a method value bound to
// the client, and what it runs registers the client where every
// goroutine can reach it. Storing the hook publishes nothing; running it
// does. newClient stores it and returns: Clone's set-up of the client it
// got is on a client nobody else has yet. newRunning runs the hook before
// it returns: CloneRunning's set-up is on a client the registry already
// hands out, a race with Prefix.
package storedmethod

import "sync"

var (
	regMu    sync.Mutex
	registry []*Client
)

type Client struct {
	mu      sync.Mutex
	process func(string)
	prefix  string
	n       int
}

// run registers the client, then counts a command.
func (c *Client) run(cmd string) {
	regMu.Lock()
	registry = append(registry, c)
	regMu.Unlock()
	c.mu.Lock()
	c.n += len(cmd)
	c.mu.Unlock()
}

func newClient() *Client {
	c := &Client{}
	c.process = c.run
	return c
}

func newRunning() *Client {
	c := &Client{}
	c.process = c.run
	c.process("hello")
	return c
}

func (c *Client) setPrefix(p string) {
	c.prefix = p
}

// Clone makes a client and sets it up before anyone else has it.
func (c *Client) Clone() *Client {
	d := newClient()
	d.setPrefix("clone")
	return d
}

// CloneRunning makes a client its maker has registered, then sets it up.
func (c *Client) CloneRunning() *Client {
	d := newRunning()
	d.prefix = "running" // want `Client.prefix written in Client.CloneRunning .* races with its read in Client.Prefix`
	return d
}

// Prefix reads the prefix under the client's lock.
func (c *Client) Prefix() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.prefix
}

// Registered is the clients registered so far.
func Registered() []*Client {
	regMu.Lock()
	defer regMu.Unlock()
	return append([]*Client(nil), registry...)
}
