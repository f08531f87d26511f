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

The rule reports the write when it sits in a branch whose condition uses
the earlier read, or stores a value computed from it (v := c.n; unlock;
lock; c.n = v + 1), directly or through a variable assigned from it. It
follows helpers that lock internally, through facts that record which
guarded fields a function reads and writes under which lock. For a
struct-typed field the part used counts, and a method of the package
called on the field uses the receiver fields it selects. Accepted: a write
preceded by a re-check of the same object's state in the section that
writes, or guarded by a check made while the writing lock is held (of
another object under a nested lock too); one whole critical section around
check and write; and an outer lock that every writer must hold (a guard of
the field, or a lock of the written object the writing helper requires),
held exclusively from one acquisition across both sections.

It also reports (*sync.Map).Load followed by Store of the same key in a
branch that depends on the Load: use LoadOrStore.
*/
package checkthenact
