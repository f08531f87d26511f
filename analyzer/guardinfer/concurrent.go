package guardinfer

import (
	"go/types"

	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Misses in code that runs concurrently. An inferred guard's miss is
// reported only where the access can run at the same time as other code,
// as RacerD reports only accesses in code that runs concurrently: in an
// exported function or method (callers anywhere may call it from any
// goroutine), in a goroutine the package starts (a go statement, wg.Go,
// errgroup's Go, time.AfterFunc, or a helper of the package whose body
// starts its function argument on a goroutine), after a go statement that
// handed the object to a goroutine, or in a function one of those calls,
// up to maxReachDepth calls up. A miss in code no such entry reaches (a
// method called only through an interface or a stored function value,
// whose callers the rule cannot see, or only from set-up that runs before
// anything is shared) is not reported: nothing shows it overlapping the
// accesses that hold the lock.

// maxReachDepth bounds how far up the callers reachedConcurrently looks.
const maxReachDepth = 5

// inThreads keeps the misses made in code that runs concurrently.
func (r *inference) inThreads(misses []*lockstate.Access) []*lockstate.Access {
	out := misses[:0:0]
	for _, m := range misses {
		f := r.funcOf[m]
		if f == nil {
			continue
		}
		if _, ok := r.starterThread(f, m); ok || r.funcConcurrent(f, 0) {
			out = append(out, m)
		}
	}
	return out
}

// funcConcurrent reports whether the body f can run concurrently: a
// goroutine's closure, or a closure run in place or deferred in a function
// that can, or a declaration reachedConcurrently.
func (r *inference) funcConcurrent(f *lockstate.Func, depth int) bool {
	if f.Lit != nil {
		switch f.Context {
		case lockstate.Goroutine:
			return true
		case lockstate.Inline, lockstate.Deferred:
		default:
			return false // stored or passed on: who calls it is not known
		}
	}
	return f.Obj != nil && r.reachedConcurrently(f.Obj.Origin(), depth)
}

// reachedConcurrently reports whether fn is an entry that runs
// concurrently (exported, or started as a goroutine) or is called from a
// body that can run concurrently, outside test files.
func (r *inference) reachedConcurrently(fn *types.Func, depth int) bool {
	if got, ok := r.reached[fn]; ok {
		return got
	}
	if fn.Exported() {
		r.reached[fn] = true
		return true
	}
	if _, ok := r.goTargets()[fn]; ok {
		r.reached[fn] = true
		return true
	}
	if depth >= maxReachDepth {
		return false // not memoised: a shallower question may see further
	}
	r.reached[fn] = false // recursion: a cycle of calls proves nothing
	got := false
	for _, site := range r.callers[fn] {
		if r.inTestFile(site.call.Node.Pos()) {
			continue // a test's calls are not the package's threads
		}
		if r.funcConcurrent(site.fn, depth+1) {
			got = true
			break
		}
	}
	if got || depth == 0 {
		r.reached[fn] = got
	} else {
		delete(r.reached, fn) // found nothing within the depth left: ask again from closer
	}
	return got
}
