// Command manykinds: a connection sends requests of many kinds (more
// than thirty-two) through one interface field, and its reader parses
// replies of a kind it never sends. The points-to sets hold that many
// objects before they give up and say "any object": a send then enters
// only the write methods of the kinds it can send, and a reply's write,
// which no send reaches, does not race with the reader filling the
// reply in. An echo a send does reach (Echo sends the last one back) is
// read by the send while the reader, which published it first, fills it
// in: a race.
package main

import "sync"

type message interface {
	read(b []byte)
	write() []byte
}

type frame struct {
	m message
}

type Conn struct {
	mu      sync.Mutex
	out     [][]byte
	last    message
	replies []*frame
}

func main() {
	c := &Conn{}
	go c.reader()
	for i := range 64 {
		go c.Call(i % 40)
		go c.Echo()
	}
}

func (c *Conn) send(f *frame) {
	c.out = append(c.out, f.m.write())
}

// Call sends a request of the kind asked for.
func (c *Conn) Call(kind int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.send(&frame{m: build(kind)})
}

type reply struct{ v int }

func (r *reply) read(b []byte) { r.v = int(b[0]) }
func (r *reply) write() []byte { return []byte{byte(r.v)} }

type echo struct{ v int }

func (r *echo) read(b []byte) { r.v = int(b[0]) } // want `echo.v written in echo.read .* races with its read in echo.write`
func (r *echo) write() []byte { return []byte{byte(r.v)} }

func (c *Conn) reader() {
	for {
		r := &reply{}
		e := &echo{}
		c.mu.Lock()
		c.replies = append(c.replies, &frame{m: r})
		c.last = e
		c.mu.Unlock()
		r.read([]byte{1})
		e.read([]byte{2})
	}
}

// Echo sends the last echo back.
func (c *Conn) Echo() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.send(&frame{m: c.last})
}

type k0 struct{ v int }

func (m *k0) read(b []byte) { m.v = int(b[0]) }
func (m *k0) write() []byte { return []byte{byte(m.v)} }

type k1 struct{ v int }

func (m *k1) read(b []byte) { m.v = int(b[0]) }
func (m *k1) write() []byte { return []byte{byte(m.v)} }

type k2 struct{ v int }

func (m *k2) read(b []byte) { m.v = int(b[0]) }
func (m *k2) write() []byte { return []byte{byte(m.v)} }

type k3 struct{ v int }

func (m *k3) read(b []byte) { m.v = int(b[0]) }
func (m *k3) write() []byte { return []byte{byte(m.v)} }

type k4 struct{ v int }

func (m *k4) read(b []byte) { m.v = int(b[0]) }
func (m *k4) write() []byte { return []byte{byte(m.v)} }

type k5 struct{ v int }

func (m *k5) read(b []byte) { m.v = int(b[0]) }
func (m *k5) write() []byte { return []byte{byte(m.v)} }

type k6 struct{ v int }

func (m *k6) read(b []byte) { m.v = int(b[0]) }
func (m *k6) write() []byte { return []byte{byte(m.v)} }

type k7 struct{ v int }

func (m *k7) read(b []byte) { m.v = int(b[0]) }
func (m *k7) write() []byte { return []byte{byte(m.v)} }

type k8 struct{ v int }

func (m *k8) read(b []byte) { m.v = int(b[0]) }
func (m *k8) write() []byte { return []byte{byte(m.v)} }

type k9 struct{ v int }

func (m *k9) read(b []byte) { m.v = int(b[0]) }
func (m *k9) write() []byte { return []byte{byte(m.v)} }

type k10 struct{ v int }

func (m *k10) read(b []byte) { m.v = int(b[0]) }
func (m *k10) write() []byte { return []byte{byte(m.v)} }

type k11 struct{ v int }

func (m *k11) read(b []byte) { m.v = int(b[0]) }
func (m *k11) write() []byte { return []byte{byte(m.v)} }

type k12 struct{ v int }

func (m *k12) read(b []byte) { m.v = int(b[0]) }
func (m *k12) write() []byte { return []byte{byte(m.v)} }

type k13 struct{ v int }

func (m *k13) read(b []byte) { m.v = int(b[0]) }
func (m *k13) write() []byte { return []byte{byte(m.v)} }

type k14 struct{ v int }

func (m *k14) read(b []byte) { m.v = int(b[0]) }
func (m *k14) write() []byte { return []byte{byte(m.v)} }

type k15 struct{ v int }

func (m *k15) read(b []byte) { m.v = int(b[0]) }
func (m *k15) write() []byte { return []byte{byte(m.v)} }

type k16 struct{ v int }

func (m *k16) read(b []byte) { m.v = int(b[0]) }
func (m *k16) write() []byte { return []byte{byte(m.v)} }

type k17 struct{ v int }

func (m *k17) read(b []byte) { m.v = int(b[0]) }
func (m *k17) write() []byte { return []byte{byte(m.v)} }

type k18 struct{ v int }

func (m *k18) read(b []byte) { m.v = int(b[0]) }
func (m *k18) write() []byte { return []byte{byte(m.v)} }

type k19 struct{ v int }

func (m *k19) read(b []byte) { m.v = int(b[0]) }
func (m *k19) write() []byte { return []byte{byte(m.v)} }

type k20 struct{ v int }

func (m *k20) read(b []byte) { m.v = int(b[0]) }
func (m *k20) write() []byte { return []byte{byte(m.v)} }

type k21 struct{ v int }

func (m *k21) read(b []byte) { m.v = int(b[0]) }
func (m *k21) write() []byte { return []byte{byte(m.v)} }

type k22 struct{ v int }

func (m *k22) read(b []byte) { m.v = int(b[0]) }
func (m *k22) write() []byte { return []byte{byte(m.v)} }

type k23 struct{ v int }

func (m *k23) read(b []byte) { m.v = int(b[0]) }
func (m *k23) write() []byte { return []byte{byte(m.v)} }

type k24 struct{ v int }

func (m *k24) read(b []byte) { m.v = int(b[0]) }
func (m *k24) write() []byte { return []byte{byte(m.v)} }

type k25 struct{ v int }

func (m *k25) read(b []byte) { m.v = int(b[0]) }
func (m *k25) write() []byte { return []byte{byte(m.v)} }

type k26 struct{ v int }

func (m *k26) read(b []byte) { m.v = int(b[0]) }
func (m *k26) write() []byte { return []byte{byte(m.v)} }

type k27 struct{ v int }

func (m *k27) read(b []byte) { m.v = int(b[0]) }
func (m *k27) write() []byte { return []byte{byte(m.v)} }

type k28 struct{ v int }

func (m *k28) read(b []byte) { m.v = int(b[0]) }
func (m *k28) write() []byte { return []byte{byte(m.v)} }

type k29 struct{ v int }

func (m *k29) read(b []byte) { m.v = int(b[0]) }
func (m *k29) write() []byte { return []byte{byte(m.v)} }

type k30 struct{ v int }

func (m *k30) read(b []byte) { m.v = int(b[0]) }
func (m *k30) write() []byte { return []byte{byte(m.v)} }

type k31 struct{ v int }

func (m *k31) read(b []byte) { m.v = int(b[0]) }
func (m *k31) write() []byte { return []byte{byte(m.v)} }

type k32 struct{ v int }

func (m *k32) read(b []byte) { m.v = int(b[0]) }
func (m *k32) write() []byte { return []byte{byte(m.v)} }

type k33 struct{ v int }

func (m *k33) read(b []byte) { m.v = int(b[0]) }
func (m *k33) write() []byte { return []byte{byte(m.v)} }

type k34 struct{ v int }

func (m *k34) read(b []byte) { m.v = int(b[0]) }
func (m *k34) write() []byte { return []byte{byte(m.v)} }

type k35 struct{ v int }

func (m *k35) read(b []byte) { m.v = int(b[0]) }
func (m *k35) write() []byte { return []byte{byte(m.v)} }

type k36 struct{ v int }

func (m *k36) read(b []byte) { m.v = int(b[0]) }
func (m *k36) write() []byte { return []byte{byte(m.v)} }

type k37 struct{ v int }

func (m *k37) read(b []byte) { m.v = int(b[0]) }
func (m *k37) write() []byte { return []byte{byte(m.v)} }

type k38 struct{ v int }

func (m *k38) read(b []byte) { m.v = int(b[0]) }
func (m *k38) write() []byte { return []byte{byte(m.v)} }

type k39 struct{ v int }

func (m *k39) read(b []byte) { m.v = int(b[0]) }
func (m *k39) write() []byte { return []byte{byte(m.v)} }

func build(kind int) message {
	switch kind {
	case 0:
		return &k0{}
	case 1:
		return &k1{}
	case 2:
		return &k2{}
	case 3:
		return &k3{}
	case 4:
		return &k4{}
	case 5:
		return &k5{}
	case 6:
		return &k6{}
	case 7:
		return &k7{}
	case 8:
		return &k8{}
	case 9:
		return &k9{}
	case 10:
		return &k10{}
	case 11:
		return &k11{}
	case 12:
		return &k12{}
	case 13:
		return &k13{}
	case 14:
		return &k14{}
	case 15:
		return &k15{}
	case 16:
		return &k16{}
	case 17:
		return &k17{}
	case 18:
		return &k18{}
	case 19:
		return &k19{}
	case 20:
		return &k20{}
	case 21:
		return &k21{}
	case 22:
		return &k22{}
	case 23:
		return &k23{}
	case 24:
		return &k24{}
	case 25:
		return &k25{}
	case 26:
		return &k26{}
	case 27:
		return &k27{}
	case 28:
		return &k28{}
	case 29:
		return &k29{}
	case 30:
		return &k30{}
	case 31:
		return &k31{}
	case 32:
		return &k32{}
	case 33:
		return &k33{}
	case 34:
		return &k34{}
	case 35:
		return &k35{}
	case 36:
		return &k36{}
	case 37:
		return &k37{}
	case 38:
		return &k38{}
	case 39:
		return &k39{}
	}
	return nil
}
