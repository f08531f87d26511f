/*
Package guardinfer defines the rule that infers guards for code without
directives.

# Analyzer guardinfer

guardinfer: infer which lock guards a field from how the package uses it (off by default)

Turned on with -config.infer (guardvet -infer; on the command line,
standalone or under go vet, naming the rule with -guardinfer turns it on
too), it reads what unannotated code already says about its locks and
reports the accesses that break it:

  - Inferred guards. For every field without directives whose struct
    contains or embeds a lock (every field, when the package declares a
    package-level lock; a field of a lock-free struct reached through a
    field of a struct with a lock, where that parent's lock may guard
    it), it records the field's accesses in the package with the locks
    held at each, and reports the accesses missing lock L, one finding
    per field, when one lock L of the same object, a package-level lock
    or a lock of the parent object, is held at no fewer than
    -config.infer.ratio (0.9) of them, at least one
    access writes the field itself (a store through a pointer it holds
    writes the pointee), and the evidence scores -config.infer.score (5): a
    point per write made with L held and per function holding L at an
    access, up to 3 of each; and a miss is reported only in code that runs
    concurrently (reached from an exported function or method, a
    goroutine the package starts, or a function after its go statement):

    c.state is accessed with c.mu held at 9 of 10 sites (e.g. conn.go:42); here it is not

  - Prose guards (-config.infer.prose). A field comment "guarded by mu",
    "protected by mu" or "must hold mu", or a lock field's comment "guards a,
    b and c" or "protects the following fields", is checked the same way,
    with no threshold. A comparison (== or !=) of a pointer field nothing
    assigns after construction is not a miss: the lock guards what it
    points to.

  - Mixed atomic and plain access. A field touched through sync/atomic at
    some sites and plainly at others is reported at the plain sites.

  - Races, for a field no guard is inferred for. Threads are the exported
    methods of an exported type whose struct holds a lock (callers may run
    them at once), goroutines (go statements of the package), and a
    function after it starts a goroutine with its object. An unlocked read
    in one thread of a field written directly under a lock in another, at
    least one of them an exported method, is reported; so is a starter's
    unlocked access after its go statement against a locked access in that
    goroutine. Only accesses on the method's receiver (or a captured or
    handed-over object) count; a field whose comment describes how it is
    shared ("owned by the reader goroutine", a qualified guard) is left
    alone:

    s.ptmx is read here with no lock held (in exported Session.Resize), and written at pty.go:40 with s.mu held (in exported Session.Detach); the two can run at once: lock s.mu here too, or if this access is safe, say why with //guard:ignore

An access that misses a guard but holds another lock held (exclusively on
one side) at every conflicting access is not reported: locks are compared
by the type that declares them, and a method is credited with the locks
every call of it holds (a method value handed to a parameter the callee
only calls in place is a call there), a goroutine with the locks its
starter holds from the go statement to a join before it returns. Two
accesses of different parts of a struct-valued field do not race; a
method called on a part reaches the fields its body selects.

Accesses on objects not yet shared (a function's own new object before it
stores, sends or captures it, and again after every goroutine it was
handed to is joined), in init helpers and sync.Once.Do closures, in
closures whose caller is unknown and in test files are not evidence, nor
reported (a test's accesses are, while a goroutine the test started with
the object runs), nor are accesses that a comment explains (in the
function's doc or above the access: "must be called without c.mu",
"safely unlock", "the world is stopped", "callers must serialize", a call
order such as "only valid after Start() is called"); a
helper only ever called under its receiver's lock, or its
argument's, counts as holding it. Fields whose struct type synchronises
itself (a lock or an atomic value inside) are not candidates.

Under inference, methods named ...Locked (-config.infer.locked) and functions
whose doc says the caller holds a lock become contracts that guardedby
checks at call sites. Every finding's suggested fix adds //guard:by L to
the field, so that from then on guardedby checks it. With
-config.infer.suggest (guardvet -suggest) it reports instead, at each field
and contract, the directive to add, with its evidence and that fix.
*/
package guardinfer

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
