// Package reach walks a graph from some of its nodes to every node they
// lead to: the worklist that check-then-act's flow graphs (the blocks
// that reach the exit, the branches a node depends on) and the engine's
// call graph (the callers of lock helpers) each need.
package reach

// Spread visits, depth first, every node next leads to from the nodes in
// work and from each node it visits. mark reports whether a node is new,
// and marks it: only new nodes are visited. Marking the nodes in work is
// up to the caller.
func Spread[T any](work []T, next func(T) []T, mark func(T) bool) {
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range next(x) {
			if mark(y) {
				work = append(work, y)
			}
		}
	}
}
