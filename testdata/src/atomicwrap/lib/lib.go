// Package lib has a wrapper type implemented with sync/atomic, as gVisor's
// atomicbitops.Int32 is: its methods' bodies, summarised as a fact, make
// calls on them atomic accesses in other packages.
package lib

import (
	"sync/atomic"
	"unsafe"
)

// Int32 is an atomically accessed int32.
type Int32 struct {
	_     noCopy
	value int32
}

type noCopy struct{}

// Load is an atomic read.
func (i *Int32) Load() int32 { return atomic.LoadInt32(&i.value) }

// Store is an atomic write.
func (i *Int32) Store(v int32) { atomic.StoreInt32(&i.value, v) }

// Add is atomic through another atomic method's field.
func (i *Int32) Add(v int32) int32 { return atomic.AddInt32(&i.value, v) }

// CompareAndSwap converts the pointer first.
func (i *Int32) CompareAndSwap(old, new int32) bool {
	return atomic.CompareAndSwapInt32((*int32)(unsafe.Pointer(&i.value)), old, new)
}

// RacyLoad is a plain read.
func (i *Int32) RacyLoad() int32 { return i.value }

// RacyStore is a plain write.
func (i *Int32) RacyStore(v int32) { i.value = v }

// Ptr hands out the address: callers may do anything with it.
func (i *Int32) Ptr() *int32 { return &i.value }

// Counter wraps Int32: atomic through its field's atomic methods.
type Counter struct {
	n Int32
}

// Inc is atomic, transitively.
func (c *Counter) Inc() { c.n.Add(1) }

// Get is atomic, transitively.
func (c *Counter) Get() int32 { return c.n.Load() }

// Bump is not: it also writes a plain copy.
func (c *Counter) Bump() { c.n.Add(1); c.n = Int32{} }
