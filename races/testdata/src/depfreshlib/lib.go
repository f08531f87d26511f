// Package depfreshlib is a dependency of the depfresh fixture, not a
// program of its own: the analysis builds no body for it and reads its
// source to learn which of its functions return what each call
// allocates.
package depfreshlib

import "errors"

// Client is what the functions below return.
type Client struct {
	Name    string
	Timeout int
	Retries int
}

// NewClient allocates the client it returns: fresh.
func NewClient(name string) *Client {
	c := &Client{Name: name}
	if name == "" {
		c.Name = "default"
	}
	return c
}

var errEmpty = errors.New("depfreshlib: empty name")

// Open returns, in a named result, what NewClient made: fresh.
func Open(name string) (c *Client, err error) {
	if name == "" {
		return nil, errEmpty
	}
	c = NewClient(name)
	return
}

// Clone copies c into a variable of its own: fresh.
func (c *Client) Clone() *Client {
	out := *c
	return &out
}

var shared = &Client{Name: "shared"}

// Default returns the one client every caller shares: not fresh.
func Default() *Client { return shared }

// Maybe makes a client, then may return the shared one instead: not
// fresh.
func Maybe(own bool) *Client {
	c := &Client{}
	if !own {
		c = shared
	}
	return c
}

// Or returns what its caller passed, or the shared client: not fresh.
func Or(c *Client) *Client {
	if c == nil {
		return shared
	}
	return c
}

// Blank returns a zero client of its own: fresh.
func Blank() *Client { return new(Client) }

// Indirect makes a client but changes the variable through its address
// to the shared one: not fresh.
func Indirect() *Client {
	c := &Client{}
	p := &c
	*p = shared
	return c
}
