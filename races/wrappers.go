package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A spawn wrapper is a function that starts, in a goroutine of its own,
// a function it is handed:
//
//	func (s *Server) startGoRoutine(f func()) {
//		s.wg.Add(1)
//		go func() { setLabels(); f() }()
//	}
//
// Its go statement runs whatever any caller passes, so taken as it is it
// would be one goroutine root running every such function, many at once,
// each racing with itself and with all the others. Each call of the
// wrapper is a go statement instead: the goroutine it starts runs what
// that call passes, from that call's place in its caller (in a loop,
// many at once; after what the caller did before it). The wrapper's own
// go statement then starts nothing.

// wrapped is how a function starts what it is handed: the parameter whose
// function its go statement runs, and that statement.
type wrapped struct {
	param int
	stmt  *ssa.Go
}

// wrapperOf reports whether fn is a spawn wrapper, computed once per
// function.
func (a *run) wrapperOf(fn *ssa.Function) (wrapped, bool) {
	if w, ok := a.wrappers[fn]; ok {
		return w, w.stmt != nil
	}
	w := findWrapped(fn)
	a.wrappers[fn] = w
	return w, w.stmt != nil
}

// findWrapped finds fn's go statement that runs one of fn's function
// parameters: go f(), or go func() { …; f() }() with f captured.
func findWrapped(fn *ssa.Function) wrapped {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			if i := paramOf(fn, g.Call.Value); i >= 0 {
				return wrapped{i, g}
			}
			if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
				if i := calledBinding(fn, mc); i >= 0 {
					return wrapped{i, g}
				}
			}
		}
	}
	return wrapped{param: -1}
}

// calledBinding is the index of fn's parameter that closure mc captures
// and calls, -1 if none.
func calledBinding(fn *ssa.Function, mc *ssa.MakeClosure) int {
	body := mc.Fn.(*ssa.Function)
	for _, b := range body.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() {
				continue
			}
			fv := call.Common().Value
			if load, ok := fv.(*ssa.UnOp); ok && load.Op == token.MUL {
				fv = load.X // a captured variable the closure reads
			}
			for k, v := range body.FreeVars {
				if v == fv && k < len(mc.Bindings) {
					if i := paramOf(fn, mc.Bindings[k]); i >= 0 {
						return i
					}
				}
			}
		}
	}
	return -1
}

// paramOf is the index of the parameter of fn that v is: the parameter
// itself, or the variable it lives in when it is captured or fn can
// recover (a cell holding only it, or a load of that cell); -1 if none.
func paramOf(fn *ssa.Function, v ssa.Value) int {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	if cell, ok := v.(*ssa.Alloc); ok {
		v = storedParam(cell)
	}
	for i, p := range fn.Params {
		if p == v {
			return i
		}
	}
	return -1
}

// storedParam is the parameter a variable's cell holds, when every store
// into it stores that parameter; nil otherwise.
func storedParam(cell *ssa.Alloc) ssa.Value {
	var param *ssa.Parameter
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		p, ok := st.Val.(*ssa.Parameter)
		if !ok || param != nil && p != param {
			return nil
		}
		param = p
	}
	if param == nil {
		return nil
	}
	return param
}

// wrapperCall recognises a call of a spawn wrapper with the function it
// hands over known: the goroutine the call starts.
func (a *run) wrapperCall(fn *ssa.Function, call *ssa.Call) (spawn, bool) {
	callee := call.Common().StaticCallee()
	if callee == nil || !a.follows(callee) {
		return spawn{}, false
	}
	w, ok := a.wrapperOf(callee)
	if !ok || w.param >= len(call.Common().Args) {
		return spawn{}, false
	}
	fns := a.funcsOf(call.Common().Args[w.param])
	if len(fns) == 0 {
		return spawn{}, false
	}
	// What the wrapper's goroutine does around the call (defer wg.Done())
	// is a way to wait for it too.
	joins := map[string]bool{}
	if mc, ok := w.stmt.Call.Value.(*ssa.MakeClosure); ok {
		scanJoins(mc.Fn.(*ssa.Function), joins)
	}
	// A wrapper whose go statement is in a loop starts many at once.
	return spawn{fns: fns, label: "goroutine started in " + a.p.name(fn) + " by " + a.p.name(callee), joins: joins, multi: inLoop(w.stmt)}, true
}

// wrapperStmt reports whether instr is a spawn wrapper's go statement,
// which starts nothing of its own: each call of the wrapper does.
func (a *run) wrapperStmt(fn *ssa.Function, instr ssa.Instruction) bool {
	g, ok := instr.(*ssa.Go)
	if !ok {
		return false
	}
	w, ok := a.wrapperOf(fn)
	return ok && w.stmt == g
}
