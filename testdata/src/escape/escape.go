// Package escape covers references into guarded fields that leave their
// critical section.
package escape

import (
	"maps"
	"os"
	"slices"
	"sync"
)

type Registry struct {
	mu    sync.RWMutex
	byID  map[string]int //guard:by mu
	order []string       //guard:by mu
	conn  *os.File       //guard:by mu
	count int            //guard:by mu
}

// The getter returns the guarded map itself.
func (r *Registry) All() map[string]int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byID // want `returns r.byID, the guarded map itself, to callers that will use it after r.mu is released; return a copy made under the lock \(maps.Clone\(r.byID\)\)`
}

func (r *Registry) Order() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.order // want `returns r.order, the guarded slice itself`
}

func (r *Registry) CountPtr() *int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &r.count // want `returns &r.count, the guarded field r.count itself`
}

// Fixed: copies made under the lock.
func (r *Registry) AllCopy() map[string]int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return maps.Clone(r.byID)
}

func (r *Registry) OrderCopy() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.order)
}

// A pointer field is a snapshot, not a container: fine.
func (r *Registry) Conn() *os.File {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.conn
}

// A caller that holds the lock may get the map itself.
//
//guard:rholds r.mu
func (r *Registry) allLocked() map[string]int {
	return r.byID
}

// p := &x.f used after Unlock.
func (r *Registry) Bump() {
	r.mu.Lock()
	p := &r.count // want `p keeps a reference into guarded r.count that is used at line 71 after r.mu is released; copy the value under the lock instead`
	r.mu.Unlock()
	*p++
}

// m := x.m used after Unlock.
func (r *Registry) Put(k string) {
	r.mu.Lock()
	m := r.byID // want `m keeps a reference into guarded r.byID that is used at line 79 after r.mu is released`
	r.mu.Unlock()
	m[k] = 1
}

// Used only under the lock: fine.
func (r *Registry) PutLocked(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.byID
	m[k] = 1
}

// A slice inside a guarded struct-typed field is guarded state too.
type ring struct {
	buf  []byte
	next *ring
}

type Output struct {
	mu   sync.Mutex
	ring ring //guard:by mu
}

func (o *Output) Raw() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ring.buf // want `returns o.ring.buf, the guarded slice itself, to callers that will use it after o.mu is released`
}

// Through a pointer it is another object's, not part of the field.
func (o *Output) NextRaw() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ring.next.buf
}
