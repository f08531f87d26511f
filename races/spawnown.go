package races

import "golang.org/x/tools/go/ssa"

// What a goroutine is handed: the ownership its spawner gives what it
// passes (a go statement's arguments) and what its literal captures; and
// what a literal called or deferred where it is made captures.

// capturedOwn is how own what a load from addr, a captured variable's
// cell, gives: in the function that declared the variable, as the least
// own value stored into it; in a goroutine's literal, as its spawner's
// cell held (spawnOrigins); anything else, not.
func (a *run) capturedOwn(fn *ssa.Function, c *context, addr ssa.Value, steps int) ownership {
	switch x := addr.(type) {
	case *ssa.FreeVar:
		return freeOrigin(fn, c, x)
	case *ssa.Alloc:
		return a.cellOwn(fn, c, x, steps)
	}
	return notOwn
}

// spawnOrigins is, for each function a spawn starts, which of its
// parameters the spawner passes an object its group owns, and, after
// them, which of a literal's free variables hold one.
func (a *run) spawnOrigins(fn *ssa.Function, c *context, instr ssa.Instruction, fns []*ssa.Function) map[*ssa.Function][]ownership {
	site, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	out := map[*ssa.Function][]ownership{}
	for _, f := range fns {
		args := passed(site, f)
		bound := freeBindings(site, f)
		if args == nil && bound == nil {
			continue
		}
		// A literal's free variables come after its parameters:
		// go func() { socket.ReadLoop() }() hands the goroutine the
		// connection its handler made, as go socket.ReadLoop() would.
		origins := make([]ownership, len(f.Params)+len(bound))
		for i, arg := range args {
			if a.own(fn, c, arg) != notOwn {
				origins[i] = ownGroup
			}
		}
		for i, b := range bound {
			if a.boundOwn(fn, c, b, instr) != notOwn {
				origins[len(f.Params)+i] = ownGroup
			}
		}
		out[f] = origins
	}
	return out
}

// freeBindings is what a go statement's function literal f captures,
// nil if site does not start one.
func freeBindings(site ssa.CallInstruction, f *ssa.Function) []ssa.Value {
	mc, ok := site.Common().Value.(*ssa.MakeClosure)
	if !ok || mc.Fn != f || len(mc.Bindings) != len(f.FreeVars) {
		return nil
	}
	return mc.Bindings
}

// boundOwn is how own, in fn, what the literal a go statement (spawn)
// starts captures is: a captured variable's cell as the values stored
// into it, if none is stored after the go statement into the same cell
// (var c; for { c = accept(); go func() { c.loop() }() } shares one
// cell, and an earlier goroutine may load the later connection) and no
// literal sets it; anything else as itself.
func (a *run) boundOwn(fn *ssa.Function, c *context, b ssa.Value, spawn ssa.Instruction) ownership {
	cell, ok := b.(*ssa.Alloc)
	if !ok || capturedCell(cell) == nil {
		return a.own(fn, c, b)
	}
	for _, ref := range *cell.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr == cell && reachesSame(spawn, x, cell) {
				return notOwn // set again after the goroutine started
			}
		case *ssa.MakeClosure:
			f := x.Fn.(*ssa.Function)
			for i, v := range x.Bindings {
				if v == cell && i < len(f.FreeVars) && !onlyNilStored(f.FreeVars[i]) {
					return notOwn
				}
			}
		}
	}
	return a.cellOwn(fn, c, cell, 0)
}

// freeOrigin is the origin of fv, a free variable of fn, in c: a
// goroutine's literal has its spawner's (spawnOrigins), after its
// parameters'.
func freeOrigin(fn *ssa.Function, c *context, fv *ssa.FreeVar) ownership {
	for i, v := range fn.FreeVars {
		if v == fv {
			return originAt(c.origins, len(fn.Params)+i)
		}
	}
	return notOwn
}

// startOrigins is what the go statement instr, in fn, passes child's
// functions that is theirs: what its spawner owns, where child joins the
// spawner's group (spawnOrigins); otherwise what the statement's own
// start made for it (freshStarts).
func (a *run) startOrigins(child *root, fn *ssa.Function, c *context, instr ssa.Instruction) map[*ssa.Function][]ownership {
	if child.group != child {
		return a.spawnOrigins(fn, c, instr, child.fns)
	}
	return a.freshStarts(fn, c, instr, child.fns)
}

// freshStarts is, for a go statement that may start many goroutines (in
// a loop, or in a function that runs many times), the arguments each
// start is handed an object of its own: one fn makes anew before each
// start (a server's accept loop making a client per connection and
// starting go cli.serve()), published to nobody before it. Each
// instance of the goroutine has its own; another goroutine that reaches
// the object elsewhere (a list of clients) still shares it.
func (a *run) freshStarts(fn *ssa.Function, c *context, instr ssa.Instruction, fns []*ssa.Function) map[*ssa.Function][]ownership {
	site, ok := instr.(*ssa.Go)
	if !ok {
		return nil
	}
	out := map[*ssa.Function][]ownership{}
	for _, f := range fns {
		args := passed(site, f)
		var origins []ownership
		for i, arg := range args {
			def := a.freshDef(instr, arg)
			if def == nil || reachesSame(instr, instr, def) || !a.unsharedAt(fn, c, arg, site, toAnyone) {
				continue // the same object for two starts, or shared already
			}
			if origins == nil {
				origins = make([]ownership, len(f.Params))
			}
			origins[i] = ownGroup
		}
		if origins != nil {
			out[f] = origins
		}
	}
	return out
}

// perRequestOrigins is, for the functions a handler's registration
// starts, their last two parameters, the response writer and the
// request, as each run's own: net/http hands every request new ones
// (fixture handlerreq). A method value's or a Handler's receiver, and
// what a literal captures, are its registrar's.
func perRequestOrigins(fns []*ssa.Function) map[*ssa.Function][]ownership {
	out := map[*ssa.Function][]ownership{}
	for _, f := range fns {
		if len(f.Params) < 2 {
			continue
		}
		o := make([]ownership, len(f.Params))
		for i := len(o) - 2; i < len(o); i++ {
			o[i] = ownFresh
		}
		out[f] = o
	}
	return out
}

// boundOrigins appends to origins, the parameters', how own what a
// function literal called (or deferred) where it is made captures is:
// it runs in the instance that made it, so a captured value is that
// instance's as an argument would be (the recovery closure a middleware
// defers over its request's context), and a captured variable's cell
// holds what the maker stored, if the literals only read it.
func (a *run) boundOrigins(fn *ssa.Function, c *context, site ssa.CallInstruction, callee *ssa.Function, origins []ownership) []ownership {
	bound := freeBindings(site, callee)
	if bound == nil {
		return origins
	}
	out := make([]ownership, len(callee.Params), len(callee.Params)+len(bound))
	copy(out, origins)
	some := false
	for _, b := range bound {
		o := notOwn
		switch x := b.(type) {
		case *ssa.Alloc:
			if readOnlyCaptured(x) {
				o = min(a.cellOwn(fn, c, x, 0), ownMade)
			}
		case *ssa.FreeVar:
			// fn's own captured variable passed on: what its cell
			// holds is not asked here; a captured value passed on is
			// what fn's caller gave it.
			if v := capturedVar(x); v != nil && !isAlloc(v) {
				o = min(a.own(fn, c, b), ownMade)
			}
		default:
			o = min(a.own(fn, c, b), ownMade)
		}
		some = some || o != notOwn
		out = append(out, o)
	}
	if !some {
		return origins
	}
	return out
}

// freeVarOwn is own for a function literal's free variable x: bound to
// a cell its enclosing function declared, that function's own, in the
// instance that made the literal and runs it; bound to a value, what the
// call that runs the literal where it was made passes (boundOrigins); a
// variable captured further out, not own.
func freeVarOwn(fn *ssa.Function, c *context, x *ssa.FreeVar) ownership {
	if _, isCell := binding(x).(*ssa.Alloc); isCell {
		return ownHere
	}
	if v := capturedVar(x); v == nil || isAlloc(v) {
		return notOwn
	}
	return freeOrigin(fn, c, x)
}

// capturedVar is what fv is bound to at last, through the literals
// that pass it on: a captured variable's cell (an Alloc), or a value;
// nil where that is not known.
func capturedVar(fv *ssa.FreeVar) ssa.Value {
	var v ssa.Value = fv
	for i := 0; i < 8; i++ {
		f, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		v = binding(f)
	}
	return nil
}

func isAlloc(v ssa.Value) bool {
	_, ok := v.(*ssa.Alloc)
	return ok
}
