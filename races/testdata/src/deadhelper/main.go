// Command deadhelper: an association unmarshals every received chunk
// into a new object in its read loop and marshals the chunks it builds
// itself in its write loop (pion/sctp). A helper for a fuzzer that
// unmarshals a packet and marshals it again is in the program, but
// nothing calls it: the objects it would mix are not mixed, and
// nothing is reported between the two loops' chunks. The write loop's
// unlocked read of the sequence number the read loop sets under the
// lock is.
package main

import (
	"errors"
	"net"
	"sync"
)

type chunk interface {
	unmarshal(raw []byte) error
	marshal() ([]byte, error)
}

type chunkHeader struct {
	typ   byte
	flags byte
	raw   []byte
}

func (h *chunkHeader) unmarshal(raw []byte) error {
	if len(raw) < 2 {
		return errors.New("short")
	}
	h.typ, h.flags, h.raw = raw[0], raw[1], raw[2:]
	return nil
}

func (h *chunkHeader) marshal() ([]byte, error) {
	return append([]byte{h.typ, h.flags}, h.raw...), nil
}

type chunkInit struct {
	chunkHeader
	tag uint32
}

func (c *chunkInit) unmarshal(raw []byte) error {
	if err := c.chunkHeader.unmarshal(raw); err != nil {
		return err
	}
	c.tag = uint32(c.raw[0])
	return nil
}

func (c *chunkInit) marshal() ([]byte, error) {
	c.raw = []byte{byte(c.tag)}
	return c.chunkHeader.marshal()
}

type chunkData struct {
	chunkHeader
	tsn uint32
}

func (c *chunkData) unmarshal(raw []byte) error {
	if err := c.chunkHeader.unmarshal(raw); err != nil {
		return err
	}
	c.tsn = uint32(c.raw[0])
	return nil
}

func (c *chunkData) marshal() ([]byte, error) {
	c.raw = []byte{byte(c.tsn)}
	return c.chunkHeader.marshal()
}

type packet struct {
	chunks []chunk
}

func (p *packet) unmarshal(raw []byte) error {
	for len(raw) > 0 {
		var c chunk
		switch raw[0] {
		case 1:
			c = &chunkInit{}
		default:
			c = &chunkData{}
		}
		if err := c.unmarshal(raw); err != nil {
			return err
		}
		p.chunks = append(p.chunks, c)
		raw = raw[1:]
	}
	return nil
}

func (p *packet) marshal() ([]byte, error) {
	var out []byte
	for _, c := range p.chunks {
		b, err := c.marshal()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

type Association struct {
	mu      sync.Mutex
	conn    net.Conn
	pending []*packet
	tsn     uint32
	peer    *chunkInit
	awake   chan struct{}
}

func (a *Association) readLoop() {
	buf := make([]byte, 1500)
	for {
		n, err := a.conn.Read(buf)
		if err != nil {
			return
		}
		p := &packet{}
		if err := p.unmarshal(buf[:n]); err != nil {
			continue
		}
		for _, c := range p.chunks {
			a.handle(c)
		}
	}
}

func (a *Association) handle(c chunk) {
	switch c := c.(type) {
	case *chunkInit:
		a.mu.Lock()
		a.peer = c
		a.pending = append(a.pending, &packet{chunks: []chunk{&chunkInit{tag: c.tag + 1}}})
		a.mu.Unlock()
		if len(c.raw) > 0 {
			return
		}
	case *chunkData:
		a.mu.Lock()
		a.tsn = c.tsn
		a.pending = append(a.pending, &packet{chunks: []chunk{&chunkData{tsn: c.tsn}}})
		a.mu.Unlock()
	}
	select {
	case a.awake <- struct{}{}:
	default:
	}
}

func (a *Association) writeLoop() {
	for range a.awake {
		a.mu.Lock()
		ps := a.pending
		a.pending = nil
		a.mu.Unlock()
		if a.tsn == 0 { // want `Association.tsn read in Association.writeLoop .* races with its write in Association.handle`
			continue
		}
		for _, p := range ps {
			b, err := p.marshal()
			if err != nil {
				continue
			}
			a.conn.Write(b)
		}
	}
}

func main() {
	c, err := net.Dial("udp", "127.0.0.1:5000")
	if err != nil {
		return
	}
	a := &Association{conn: c, awake: make(chan struct{}, 1)}
	go a.readLoop()
	go a.writeLoop()
	select {}
}

// TryMarshalUnmarshal parses a message and writes it out again, for a
// fuzzer; nothing in the program calls it.
func TryMarshalUnmarshal(msg []byte) int {
	p := &packet{}
	if err := p.unmarshal(msg); err != nil {
		return 0
	}
	if _, err := p.marshal(); err != nil {
		return 0
	}
	return 1
}
