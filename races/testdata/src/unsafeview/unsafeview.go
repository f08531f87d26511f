// Command unsafeview: a store copies each entry's header out of its ring
// into a byte array of the call's own, views the array as a header
// through unsafe.Pointer, changes it and copies it back, all under its
// lock (freecache's segment.set). The array is the call's own, whatever
// type it is seen as: what the call writes through the view is not
// reported. Peek views the ring itself, which every call shares, and
// writes through that view with no lock: that is.
package main

import (
	"sync"
	"unsafe"
)

type header struct {
	keyLen uint16
	valLen uint32
	hits   uint32
}

const headerSize = int(unsafe.Sizeof(header{}))

type Store struct {
	mu   sync.Mutex
	ring []byte
}

func (s *Store) Touch(off int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var buf [headerSize]byte
	copy(buf[:], s.ring[off:])
	hdr := (*header)(unsafe.Pointer(&buf[0]))
	hdr.hits++
	hdr.valLen = uint32(len(s.ring) - off)
	copy(s.ring[off:], buf[:])
}

func (s *Store) Resize(off int, n uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var buf [headerSize]byte
	copy(buf[:], s.ring[off:])
	hdr := (*header)(unsafe.Pointer(&buf[0]))
	hdr.valLen = n
	copy(s.ring[off:], buf[:])
}

// Peek counts a hit in place, in the shared ring, with no lock.
func (s *Store) Peek(off int) uint16 {
	hdr := (*header)(unsafe.Pointer(&s.ring[off]))
	hdr.hits++ // want `header.hits written in Store.Peek .* races with its (read|write) in Store.Peek`
	return hdr.keyLen
}

func main() {
	s := &Store{ring: make([]byte, 1<<16)}
	for i := 0; i < 4; i++ {
		go func(off int) {
			for {
				s.Touch(off)
				s.Resize(off, 8)
				s.Peek(off)
			}
		}(i * 64)
	}
	select {}
}
