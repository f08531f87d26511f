// Package capturedparam fills a new object's parts in a method that
// captures its receiver in the closures it hands the parts' constructors
// (quic-go's streamsMap.initMaps). The receiver lives in a cell the
// closures only read, so it is the parameter still: the object the
// constructor has not handed out yet, and storing a part that holds a
// closure over it back into it publishes nothing. Once the map is
// published, re-filling it under its lock races with a read that takes
// no lock.
package capturedparam

import "sync"

type streams struct {
	next func() int
	n    int
}

func newStreams(next func() int) *streams { return &streams{next: next} }

type Map struct {
	mu  sync.Mutex
	out *streams
	in  *streams
	seq int
}

func NewMap() *Map {
	m := &Map{}
	m.init()
	return m
}

func (m *Map) init() {
	m.out = newStreams(func() int { return m.seq }) // no race: m is not published yet
	m.in = newStreams(func() int { return m.seq })  // no race either
}

// Reset re-fills the map under its lock.
func (m *Map) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
}

// Out reads a part with no lock.
func (m *Map) Out() *streams {
	return m.out // want `Map.out read in Map.Out \(exported method: Map.Out\) races with its write in Map.init`
}

// In reads the other under the lock.
func (m *Map) In() *streams {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.in
}

type Registry struct {
	mu   sync.Mutex
	maps []*Map
}

// Add makes a map and publishes it.
func (r *Registry) Add() *Map {
	m := NewMap()
	r.mu.Lock()
	r.maps = append(r.maps, m)
	r.mu.Unlock()
	return m
}
