/*
Package lockstate defines the analyzer at the heart of guardvet: a
flow-sensitive computation of which locks are held where.

# Analyzer lockstate

lockstate: compute the locks held at every access, call and return

For each function body it runs a dataflow over the control-flow graph, with
one state per lock instance (not known, not held, read-locked, locked, or
held on some paths only). It follows branches, loops, switch and select,
early returns, panics, goto, defer (also inside an if or a loop: deferred
calls run at each return, last registered first, with the locks held
there), TryLock branches, closures called in place or deferred,
synchronous standard-library callbacks (sort.Slice, slices.SortFunc,
sync.Once.Do, ...) and range-over-func bodies. Closures started with go,
or stored, returned or passed on, start with no locks held.

Lock instances are access paths (c.mu, c.inner.mu) after local aliases are
substituted, so d := c; d.mu.Lock() holds c.mu, and holding a.mu does not
cover b.n. Function contracts (//guard:holds and friends) set the entry
state and, at call sites, are checked and applied with the receiver and
arguments substituted. Unannotated functions with a fixed net lock effect,
like func (c *C) lock() { c.mu.Lock() }, are summarised and exported as
facts, so callers in any package see their effect.

Objects allocated in the function are "fresh" until they escape (passed to
a call, stored, sent, returned or captured by a go statement); accesses to
them before that need no lock.

Functions are also summarised by what they do through their pointer
parameters and receiver: only read, only access with sync/atomic, or may
write (a write under a lock inside the pointee does not count). So
x.f.m() on a value field is a read, an atomic access or a write of x.f as
m's body says, in this package and, through a package fact, in others.

The analyzer reports nothing itself. Packages that neither declare nor
import any directive get only a syntax scan for lock helpers.
*/
package lockstate

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
