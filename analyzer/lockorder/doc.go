/*
Package lockorder defines the rule that checks lock order and self-deadlock.

# Analyzer lockorder

lockorder: report lock-order inversions, lock-order cycles and self-deadlock

Declared order: //guard:order A B C on a struct type lists lock fields of
that type, outermost first (//guard:order detachMu ptmxMu); on a type's doc
or a package-level var declaration, qualified paths (T.a U.b, or a
package-level lock) order locks across types. Acquiring an earlier lock while
a later one is held is reported at the acquisition, with the site where the
later lock was taken.

Inferred order: every acquisition made while another lock is held adds an
edge between lock classes (Type.field, or a package-level lock) to a graph
that spans functions (through callees that lock internally) and packages
(through facts). A cycle in that graph is a potential deadlock; it is
reported once, at an edge of the package that closes it, naming a site for
every edge of the cycle. Only packages that declare or import guardvet
directives contribute edges, and only packages that declare them report
(or every package, with -config.unannotated).

Self-deadlock: calling a function that locks a lock instance already held
(with the receiver and arguments substituted), which deadlocks because Go
mutexes are not reentrant; and a recursive RLock, which deadlocks as soon as
a writer is waiting. (Locking an instance already held directly, and RLock
while holding the write lock, are reported by guardedby.)
*/
package lockorder

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
