/*
Package directives defines the analyzer that reads guardvet's directives.

# Analyzer directives

directives: read //guard: directives and report malformed ones

Directives are Go-style comments (no space after //) in the doc comment or
trailing comment of a declaration:

	type Conn struct {
		mu    sync.Mutex
		state int //guard:by mu
	}

	//guard:holds c.mu
	func (c *Conn) setStateLocked(s int) { c.state = s }

On struct fields and package-level variables: //guard:by L, //guard:only
F..., //guard:atomic. On functions: //guard:holds, rholds, acquires,
racquires, releases, rreleases, excludes L..., and //guard:ignore REASON
(also on a statement line). Every directive that cannot be understood is a
diagnostic at its own position: an unknown verb (with a did-you-mean), a
lock path that does not resolve or is not a lock, an unknown function in
//guard:only, a directive on the wrong kind of declaration, and an ignore
without a reason.

The analyzer exports what the directives say as facts, so a guarded field is
checked in every package that touches it. Its result is the directive view
that the lockstate analyzer and the rules build on.
*/
package directives

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
