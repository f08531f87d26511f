// Package races finds data races in code nobody annotated, across a whole
// program: guardvet races.
//
// A per-package pass cannot know who calls a function, with which locks
// held, from which goroutine; that is the whole question for a race. This
// package answers it for one program at a time:
//
//   - program.go loads the packages with go/packages, builds their SSA
//     (golang.org/x/tools/go/ssa; bodies only for the packages named,
//     dependencies from export data) and a call graph that resolves
//     interface and function-value calls (callgraph/vta, seeded with CHA);
//   - roots.go finds the goroutine roots: main, the targets of go
//     statements, net/http handlers, time.AfterFunc callbacks, and, for a
//     library with no main, the exported methods of types whose methods
//     take one of their own locks (RacerD's rule: the type says it is used
//     concurrently); test functions with -tests; wrappers.go makes each
//     call of a spawn wrapper (a function whose go statement runs what it
//     is handed) a go statement of its own;
//   - points.go is a typed points-to analysis of the program's own code
//     (pointsquery.go, what it says of a value; depfresh.go, which of a
//     dependency's functions return what each call allocates, read from
//     their source, and which keep an argument only in what they
//     return; pointsclone.go, a copy of a factory's body for each
//     call of it, so that what each call makes is told apart),
//     and objects.go refines it along call paths (what a parameter points
//     to in each context, results that are fresh objects); escape.go finds
//     the objects another goroutine of the program can reach (the others
//     cannot race); ownership.go, which objects one instance of a root,
//     or of a group of roots (a handler and the goroutines it starts
//     once), made itself, and the fields that only ever hold what their
//     object's group made (freshfields.go: or only what was new when
//     it was stored, which a load from an unshared object then is too);
//   - locks.go computes the locks surely held at each access: a dataflow
//     over each body (what it acquires and releases; branchlocks.go, what
//     holds on one way of a branch: where a call's error is nil, under a
//     constant or a lock flag), and the entry lock set of each function
//     reached from a root, the intersection over its callers of what they
//     hold at the call; detached.go, a value swapped out of a field
//     under a lock, accessed as if the lock were held; closedflag.go, a
//     closed flag checked and set under a lock, which leaves the call
//     that set it alone with its object's fields;
//   - access.go records each read and write of a field, of a map held in
//     a field or package variable, and of a package variable, leaving out
//     objects a function made itself and has not published yet
//     (publish.go says when an object is published; escapekind.go, how
//     each function lets its parameters go: returned, kept in what it
//     returns or in another argument, handed to goroutines it starts);
//   - order.go is happens-before: what a goroutine's spawner does before
//     the go statement, and after it joins the goroutine (sync.WaitGroup,
//     errgroup, a receive from a channel the goroutine sends on or closes),
//     and order through channels, atomics (atomics.go) and WaitGroups held
//     in fields; once.go is sync.Once;
//   - report.go pairs the accesses of one field from roots that can run at
//     the same time, at least one a write, with no lock held at both and
//     no order between them, and reports each bug once (the accesses of
//     a function are one node of the race graph; the finding is at the
//     one that lacks the lock) with both sides and the call path from
//     each root.
//
// Locks are told apart by type and field (Session.mu), not by object: a
// lock of another instance of the type counts as this one's, which can
// hide a race but not invent one. Objects are told apart by allocation
// site, refined along call paths (objects.go), by escape (escape.go) and
// by ownership (ownership.go).
package races

// Rule is the name races' findings carry, as a rule's do.
const Rule = "races"

// Doc is the first line of docs/rules/races.md, for -help and SARIF.
const Doc = "races: fields and package variables accessed from goroutines that can run at the same time, at least one access a write, with no lock held at both and nothing ordering them (guardvet races, whole-program)"
