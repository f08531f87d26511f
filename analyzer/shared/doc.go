/*
Package shared defines the rule that finds variables shared with
goroutines and accessed with nothing ordering the accesses.

# Analyzer shared

shared: report variables a goroutine shares with its parent or its siblings, written with no lock, atomic or join ordering the accesses (off by default: -shared)

Turned on with -config.shared (guardvet -shared; naming the rule turns it
on), it looks at every goroutine a function starts (go statements,
errgroup.Group.Go, sync.WaitGroup.Go, time.AfterFunc) and reports two
accesses to the same variable, at least one a write, that can run at once:

  - the goroutine and the function that started it, between the start and
    the join (wg.Wait for a goroutine that calls wg.Done, the errgroup's
    Wait, a receive from a channel the goroutine sends on or closes);
  - two instances of a goroutine started in a loop, or two goroutines
    started by one function before either is joined;
  - a named result the goroutine uses while the function can return
    before joining it.

The variables are locals captured by the goroutine's closure (named
results included) and package-level variables, with the fields and
elements reached from them, through pointers too (p.f = v); for maps,
slices and arrays, an element write and an element access conflict, and
writes to distinct indices (res[i] with i the goroutine's own) do not.
What a callee does with no lock held, through its parameters and
receiver or to package-level variables, counts at the call (c.inc()
bumping c.n), through a per-package summary fact. Accesses under a lock
both sides hold, or through sync/atomic, are not reported, except a
plain access of a place another side accesses atomically; nor is a value
only read.

	err is written in the goroutine started at fetch.go:12 and written in another instance of it at fetch.go:14, with no lock, atomic or join ordering the two; declare err inside the goroutine, or collect results by index or over a channel
*/
package shared

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
