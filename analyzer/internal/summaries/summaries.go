// Package summaries memoises a rule's per-function summary: computed from
// the package's own bodies, read from facts for other packages' functions,
// and exported in source order. Verdicts memoises yes-or-no answers that
// may ask themselves again.
package summaries

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
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

// Export exports a fact for each of the package's functions in fns (the
// keys: those it has bodies for), the one fact returns for it, or none
// where it returns nil. It visits them in source order, so that the
// summaries computed on the way cut recursion the same way every run.
func Export[B any](pass *analysis.Pass, fns map[*types.Func]B, fact func(*types.Func) analysis.Fact) {
	var order []*types.Func
	for fn := range fns {
		order = append(order, fn)
	}
	sort.Slice(order, func(i, j int) bool { return srcpos.Less(pass.Fset, order[i].Pos(), order[j].Pos()) })
	for _, fn := range order {
		if f := fact(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
}

// Verdicts memoises yes-or-no answers, by key: 1 yes, -1 no, and 0 while
// the answer is being computed, so that the question asked again in the
// meantime (by recursion) gets no.
type Verdicts[K comparable] map[K]int8

// Known returns the verdict on k if it has one, or no while it is being
// computed; ok is false when k was never asked.
func (v Verdicts[K]) Known(k K) (yes, ok bool) {
	x, ok := v[k]
	return x > 0, ok
}

// Start marks k as being computed.
func (v Verdicts[K]) Start(k K) { v[k] = 0 }

// Settle records the verdict yes on k and returns it.
func (v Verdicts[K]) Settle(k K, yes bool) bool {
	if yes {
		v[k] = 1
	} else {
		v[k] = -1
	}
	return yes
}
