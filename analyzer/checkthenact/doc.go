/*
Package checkthenact defines the rule that finds checks and acts split
across two critical sections.

# Analyzer checkthenact

checkthenact: report a write that depends on a read made in an earlier critical section

Every access can be locked and the code still be wrong: read a guarded
field in one critical section, release the lock, then write the field in a
later critical section of the same lock instance because of what was read.
Two callers can both see the old value and both act on it; the race
detector cannot see this, because no access is unprotected:

	if s.lockedPTMX() == nil {      // read under ptmxMu, released
		f := start()
		s.setPTYTriple(f)            // written under ptmxMu again
	}

The rule reports the write when whether it runs is decided by a branch
whose condition uses the earlier read, or when it stores a value, or
writes a map key, computed from it (v := c.n; unlock; lock; c.n = v + 1),
directly or through any local computation (v += d, w := v * 2, a loop
that accumulates). "Decided by" is control dependence on the
go/cfg graph (the write does not post-dominate the branch, but does
post-dominate one of its ways): an if, switch case or loop around the
write, and a guard clause or early exit anywhere before it (if ok {
return s }, in an else, inside another if, in a select case, a goto or
labeled continue around it, a call that never returns such as
log.Fatal), but not a branch whose ways meet again before the write (a
case that falls through into it, a goto to it). It follows helpers that
lock internally, through facts that record which guarded fields a
function reads and writes under which lock, and which results each read
reaches; an error a helper returns is error handling, not a check. A
helper that releases the caller's lock and takes it again, and
sync.Cond.Wait, start a new critical section.

A write is accepted when the same field (the same part, the same map key)
is read again in the section that writes, on every path to it since the
lock was last taken (one read or several: a look in each arm of an if,
or in every iteration of a wait loop, counts; one made only in some
branch or only while a loop runs does not); when
check and write are one critical section; when the read's own section
also wrote the field (the value was taken out, not looked at); and when
an outer lock is held from one acquisition across both sections: one
every writer must hold (a guard of the field, or a lock the writing
helper requires), a lock of the written object itself held for writing,
or any lock that every write of the field in the package conflicts
with.

It also reports (*sync.Map).Load followed by Store of the same key that
depends on it (use LoadOrStore), and a sync/atomic Store that depends on
the latest Load of the same variable: in a branch or after a guard clause
on it (use CompareAndSwap; a guard clause that returns what was loaded is
a cache and is left alone) or storing a value computed from it (use Add),
unless a lock held across both keeps every other store out.

By default it leaves out what cannot lose an update, and reports it only
under -config.strict (guardvet -strict): an act in a helper that decides
it from its own read of the field under the lock (a branch or guard
clause on that read before the write, or before the closure that writes;
recorded in the facts, so across packages too); a store-if-differs (if x
!= v { x = v }, or x.Load() != v then x.Store(v), the condition being
the only branch on the read that decides it); and a constant store to an
unexported field every write of which in the package stores that
constant (a flag only ever set to true). For the last two the branch
must decide nothing but the write and the lock calls around it: a close
or a call in it acts on the stale check too, and is reported.
*/
package checkthenact

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
