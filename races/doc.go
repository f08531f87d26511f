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
//     concurrently); test functions with -tests;
//   - locks.go computes the locks surely held at each access: a dataflow
//     over each body (what it acquires and releases), and the entry lock
//     set of each function reached from a root, the intersection over its
//     callers of what they hold at the call;
//   - access.go records each read and write of a field, of a map held in
//     a field or package variable, and of a package variable, leaving out
//     objects a function made itself and has not published yet;
//   - order.go is happens-before: what a goroutine's spawner does before
//     the go statement, and after it joins the goroutine (sync.WaitGroup,
//     errgroup, a receive from a channel the goroutine sends on or closes);
//   - report.go pairs the accesses of one field from roots that can run at
//     the same time, at least one a write, with no lock held at both and
//     no order between them, and reports each with both sides and the
//     call path from each root.
//
// Locks and fields are told apart by type and field (Session.mu,
// Session.ptmx), not by object: two instances of one type count as one,
// which can hide a race (a lock of another instance taken) but not invent
// one.
package races

// Rule is the name races' findings carry, as a rule's do.
const Rule = "races"

// Doc is the first line of docs/rules/races.md, for -help and SARIF.
const Doc = "races: fields and package variables accessed from goroutines that can run at the same time, at least one access a write, with no lock held at both and nothing ordering them (guardvet races, whole-program)"
