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
the earlier read (directly or through a variable assigned from it). It
follows helpers that lock internally, through facts that record which
guarded fields a function reads and writes under which lock. A write
preceded by a re-check of the same field under the lock that writes (the
helper re-reads before it installs) is accepted, and so is one whole
critical section around check and write.

It also reports (*sync.Map).Load followed by Store of the same key in a
branch that depends on the Load: use LoadOrStore.
*/
package checkthenact
