/*
Package guardedby defines the rule that checks guarded fields and function
contracts.

# Analyzer guardedby

guardedby: report guarded fields touched without their lock, and broken lock contracts

A field or package-level variable marked //guard:by L may be read only with L
held (read or write mode) and written only with L held in write mode. Writes
include assignment, ++, op-assign, map store, delete, clear, slice and array
element stores, append-assign, stores into a struct-valued field, &x.f, and
pointer-method calls on a value field (x.buf.WriteString). A field marked
//guard:only F... may be touched only inside the listed functions (and
closures in them), in any package, whatever locks are held; keyed
composite-literal initialisation is always allowed. A field marked
//guard:atomic must be accessed through sync/atomic; combined with
//guard:by, reads need the lock or an atomic load and writes need both.
A struct holding such fields (or +checkatomic fields, or fields of the
sync/atomic types) copied as a whole from shared memory (*p, a field
through a pointer, a package-level variable, a slice element, a value
receiver), or assigned over as a whole (*p = v), reads or writes them
non-atomically and is reported.

At call sites, //guard:holds and //guard:rholds must be satisfied and
//guard:excludes must not be violated, with the callee's receiver and
arguments substituted; acquire and release effects, declared or inferred,
are applied. go f() where f needs a lock held is reported: a new goroutine
holds no locks.

Lock balance is checked in the precise cases only: a return that still holds
a lock which the function releases later on other paths (a missing unlock on
an early return), a function that breaks its declared holds, acquires or
releases contract on some path, unlocking a lock that is not held, unlocking
in the wrong mode, and locking a lock that is already held.

An entry of a map of per-key locks (values that are locks and nothing
else) deleted or replaced (delete(m, k), m[k] = v) while a lock taken from
m[k] is held is reported: another goroutine can then create a fresh lock
for k and run alongside the holder.
The lock is m[k] itself, a local whose every value comes from m[k]
(get-or-create included), or what a helper of the package returns as its
map's entry for a key parameter.
*/
package guardedby

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
