package races

import "golang.org/x/tools/go/ssa"

// sync.Once: the function handed to Do runs once, and every Do returns
// only after it has. So what the function does happens before whatever
// follows a Do on the same Once, in any goroutine, and never runs
// alongside itself. A Once is known by where it lives (T.once, pkg.once),
// like the channels that order accesses.

// onceDo is the Once a call of its Do method works on, as a location; ""
// for any other instruction, or a Once that is not a field or a package
// variable.
func onceDo(instr ssa.Instruction) string {
	call, ok := instr.(*ssa.Call)
	if !ok || len(call.Common().Args) != 2 {
		return ""
	}
	// (*sync.Once).Do, the only method of package sync named Do, told
	// without spelling its name (this runs for every pair of accesses).
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Name() != "Do" || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" {
		return ""
	}
	return heldAt(call.Common().Args[0])
}

// inOnce is the Once whose Do runs s, through s's witness path; "" if
// none does.
func inOnce(s site) string {
	for _, e := range s.root.path(s.fn) {
		if e.site != nil {
			if o := onceDo(e.site); o != "" {
				return o
			}
		}
	}
	return ""
}

// afterOnce reports whether, on s's witness path, a Do on the Once o (or
// a call of a function that always makes one) comes before the call that
// leads on to s, or before s itself, on every path through its function;
// or, for a goroutine, before the go statement that started it (or one
// of its starters): quic-go's dial initialises the transport through its
// Once and then starts the connection's goroutine.
func afterOnce(s site, o string) bool {
	if afterOnceAt(s.root, s.fn, s.acc.instr, o) {
		return true
	}
	for r := s.root; r.parent != nil && r.site != nil; r = r.parent {
		if afterOnceAt(r.parent, r.siteFn, r.site, o) {
			return true
		}
	}
	return false
}

// afterOnceAt is afterOnce for the instruction at, in fn, reached by r.
func afterOnceAt(r *root, fn *ssa.Function, at ssa.Instruction, o string) bool {
	p := r.path(fn)
	for d, e := range p {
		next := at
		if d+1 < len(p) {
			next = p[d+1].site
		}
		if next == nil {
			continue
		}
		for _, b := range e.caller.Blocks {
			for _, j := range b.Instrs {
				if dominates(j, next) && mustDo(j, o, 3) {
					return true
				}
			}
		}
	}
	return false
}

// mustDo reports whether instr is a Do on the Once o, or a static call of
// a function that makes one (or such a call, depth levels down) before
// every return.
func mustDo(instr ssa.Instruction, o string, depth int) bool {
	if onceDo(instr) == o {
		return true
	}
	call, ok := instr.(*ssa.Call)
	if !ok || depth == 0 {
		return false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	for _, b := range callee.Blocks {
		for _, j := range b.Instrs {
			if j == instr || !mustDo(j, o, depth-1) {
				continue
			}
			if dominatesReturns(j) {
				return true
			}
		}
	}
	return false
}

// dominatesReturns reports whether instr comes before every return of
// its function.
func dominatesReturns(instr ssa.Instruction) bool {
	for _, b := range instr.Parent().Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !dominates(instr, ret) {
			return false
		}
	}
	return true
}

// onceOrders reports whether x runs in a Once's function and y either
// follows a Do on that Once or runs in the same function, which runs
// once.
func (a *run) onceOrders(x, y *site) bool {
	o := a.orderOf(x).once
	return o != "" && (a.orderOf(y).once == o || afterOnce(*y, o) || onceStarts(*x, *y, o))
}

// onceStarts reports whether y's goroutine, or one that started it, was
// started by a go statement that the Once o's function runs after x
// (quic-go's Transport.init sets the transport's fields, on one branch
// or another, and then starts its listen loop, inside initOnce.Do): the
// function runs once, so whichever goroutine runs it, x, where it runs,
// is done before the go statement.
func onceStarts(x, y site, o string) bool {
	fx, ix := inOnceFunc(x.root.path(x.fn), o, x.acc.instr)
	if fx == nil {
		return false
	}
	for r := y.root; r.parent != nil; r = r.parent {
		// The function runs once: where both run, x comes first unless
		// the go statement can come before it (a loop).
		if fy, iy := inOnceFunc(r.parent.path(r.siteFn), o, r.site); fy == fx && ix != iy && reaches(ix, iy) && !reaches(iy, ix) {
			return true
		}
	}
	return false
}

// inOnceFunc is, on a witness path ending at last, the function a Do on
// the Once o runs, and its instruction the path goes on from (a call, or
// last itself); nil if no Do on o is on the path.
func inOnceFunc(p []callEdge, o string, last ssa.Instruction) (*ssa.Function, ssa.Instruction) {
	for d, e := range p {
		if e.site == nil || onceDo(e.site) != o {
			continue
		}
		if d+1 < len(p) {
			return e.caller, p[d+1].site
		}
		return e.caller, last
	}
	return nil, nil
}
