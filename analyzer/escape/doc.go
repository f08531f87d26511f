/*
Package escape defines the rule that keeps references to guarded state
inside their critical section.

# Analyzer escape

escape: report references into guarded fields that outlive their critical section

A guarded map or slice shares its contents when copied, and a pointer to a
guarded field is the field. Handing either out of the critical section
lets code read and write the guarded state with the lock released, which
guardedby cannot see because the field itself is no longer named. The rule
reports:

  - a function that returns a guarded map or slice field (or &x.f), with
    the lock held at the access and released by the return, as getters do:
    return a copy made under the lock (maps.Clone, slices.Clone);
  - p := &x.f, or m := x.m for a map or slice field, taken under the lock
    and used after it is released: copy the value under the lock instead.

Pointer-typed fields (x.conn *Conn) are not containers: copying the
pointer under the lock and using it afterwards is the snapshot pattern,
and the pointee is not covered by the field's guard.

By default it leaves out, and reports only under -config.strict (guardvet
-strict), a copy-on-write map or slice handed out or used after the
unlock: every write of the field in the package replaces it whole, and
nothing writes a stored value in place (no element write, no append to
the field itself, no truncation, sort, delete or clear, also through a
local copy; a local appended to where it is nil builds a new array). And
a field returned where it is nil (if x.f == nil { return x.f }): nothing
is shared.
*/
package escape

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
