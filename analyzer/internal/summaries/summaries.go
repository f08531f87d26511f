// Package summaries memoises a rule's per-function summary: computed from
// the package's own bodies, read from facts for other packages' functions.
package summaries

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Memo memoises a rule's per-function summary: computed from this
// package's bodies, imported as a fact for other packages' functions, and
// empty (nil) for a function reached again while it is being computed
// (recursion). lockorder, noblock and checkthenact each keep one.
type Memo[F any, PF interface {
	*F
	analysis.Fact
}] struct {
	pass    *analysis.Pass
	compute func(*types.Func) PF
	memo    map[*types.Func]PF
	active  map[*types.Func]bool
}

// New returns a memo whose local summaries come from compute.
func New[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, compute func(*types.Func) PF) *Memo[F, PF] {
	return &Memo[F, PF]{pass: pass, compute: compute, memo: map[*types.Func]PF{}, active: map[*types.Func]bool{}}
}

// Of returns fn's summary, or nil.
func (s *Memo[F, PF]) Of(fn *types.Func) PF {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if v, ok := s.memo[fn]; ok {
		return v
	}
	if fn.Pkg() != s.pass.Pkg {
		var f F
		var v PF
		if s.pass.ImportObjectFact(fn, PF(&f)) {
			v = PF(&f)
		}
		s.memo[fn] = v
		return v
	}
	if s.active[fn] {
		return nil
	}
	s.active[fn] = true
	v := s.compute(fn)
	delete(s.active, fn)
	s.memo[fn] = v
	return v
}
