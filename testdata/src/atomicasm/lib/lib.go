// Package lib implements atomic operations in assembly on amd64 and arm64,
// as gVisor's atomicbitops does: a Go declaration without a body there,
// and a Go body using sync/atomic in a file built on other platforms.
package lib

import "sync/atomic"

// Uint32 is an atomically accessed uint32.
type Uint32 struct {
	value uint32
}

// Load is an atomic read.
func (u *Uint32) Load() uint32 { return atomic.LoadUint32(&u.value) }

// Unknown has no body on any platform: nothing says what it does.
//
//go:noescape
func Unknown(addr *uint32)

// Store is an atomic write in Go.
func Store(addr *uint32, v uint32) { atomic.StoreUint32(addr, v) }
