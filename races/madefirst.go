package races

import (
	"slices"

	"go/token"

	"golang.org/x/tools/go/ssa"
)

// startedAfterMade reports whether c, a goroutine x's root starts, can
// have the object x accesses only if it was started after x: the object
// is one x's instance made and handed to nobody but goroutines it starts
// (x.kept), and nothing that can run between the object's making and x
// (on x's call path, from the function whose call made it down to x)
// starts c, directly, through calls, or through the goroutines it
// starts. Before that call the object does not exist, so a c that has it
// was started after x. badger's StreamDB opens a database of its own,
// then starts its writer goroutine on it through Prepare: Open's set-up
// of the new database comes first, whichever way (DropAll's, on the
// receiver) the same go statement was first reached.
func (a *run) startedAfterMade(x site, c *root) bool {
	if !x.kept || c.site == nil {
		return false
	}
	frames, _ := a.madeFrames(x)
	if frames == nil {
		return false
	}
	for _, f := range frames {
		for _, cs := range a.callsOf(f.fn) {
			if !reaches(cs.instr, f.at) {
				continue // runs after x, or not on the way to it
			}
			if cs.instr == c.site {
				return false
			}
			for _, g := range cs.callees {
				if cs.entered && a.reachable(g)[c.siteFn] {
					return false
				}
			}
			for _, g := range append(cs.callbacks, cs.sp.fns...) {
				if a.reachable(g)[c.siteFn] {
					return false
				}
			}
		}
	}
	return true
}

// madeFrames is x's call path from the function whose call makes the
// object x accesses down to x, each function with where the path is in
// it: the object is followed up the path through the parameters it is
// passed in and the owned fields (or fields that only hold what was new,
// freshfields.go) it is loaded from, to an allocation or
// to a call that hands over what it made, which is returned with them.
// nil if it cannot be followed.
func (a *run) madeFrames(x site) ([]frame, ssa.Value) {
	frames, _, made := a.madeChain(x)
	return frames, made
}

// madeChain is madeFrames, with the object in each frame: the value
// made in the first, then the parameter each call passes it in (the
// outermost holder, where the object is reached through fields that
// only hold what was new).
func (a *run) madeChain(x site) ([]frame, []ssa.Value, ssa.Value) {
	path := a.ctxPath(x)
	held := make([]ssa.Value, len(path))
	made := func(i int, v ssa.Value) ([]frame, []ssa.Value, ssa.Value) {
		held[i] = v
		var out []frame
		for j := i; j < len(path); j++ {
			at := x.acc.instr
			if j+1 < len(path) {
				at = path[j+1].site
			}
			out = append(out, frame{path[j].caller, at})
		}
		return out, held[i:], v
	}
	v, fn := objectOf(x.acc.base), x.fn
	for i := len(path) - 1; i >= 0 && path[i].caller == fn; {
		if box, ok := a.freshLoad(v); ok {
			v = objectOf(box) // new when stored into what fn loads it from
			continue
		}
		switch y := v.(type) {
		case *ssa.MakeInterface:
			v = y.X // the object, held as an interface
			continue
		case *ssa.Phi:
			if !a.allMade(y) {
				return nil, nil, nil
			}
			return made(i, v)
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.Call, *ssa.Extract:
			if !a.madeHere(y) {
				return nil, nil, nil
			}
			return made(i, v)
		case *ssa.UnOp:
			if w, _ := a.stored(fn, y, 0); w != nil {
				v = w // what fn stored in a field only the maker sets
				continue
			}
			fa, ok := y.X.(*ssa.FieldAddr)
			if !ok || y.Op != token.MUL || !a.isOwned(fieldKey(fa.X.Type(), fa.Field)) {
				return nil, nil, nil
			}
			v = objectOf(fa.X)
		case *ssa.Parameter:
			j := paramOf(fn, y)
			if i == 0 || j < 0 || path[i].site == nil {
				return nil, nil, nil
			}
			call, ok := path[i].site.(ssa.CallInstruction)
			if !ok {
				return nil, nil, nil
			}
			args := passed(call, fn)
			if j >= len(args) {
				return nil, nil, nil
			}
			held[i] = y
			v, fn, i = objectOf(args[j]), path[i-1].caller, i-1
		default:
			return nil, nil, nil
		}
	}
	return nil, nil, nil
}

// madeHere reports whether v is an object its function makes: an
// allocation (not a captured variable's cell), a new slice or map, or
// what a call that hands over what it made returns.
func (a *run) madeHere(v ssa.Value) bool {
	switch y := v.(type) {
	case *ssa.Alloc:
		return capturedCell(y) == nil
	case *ssa.MakeSlice, *ssa.MakeMap:
		return true
	case *ssa.Call, *ssa.Extract:
		return a.handedOver(y, beyondSpawned)
	case *ssa.MakeInterface:
		return a.madeHere(y.X)
	}
	return false
}

// allMade reports whether each value phi merges is one its function
// makes (one constructor or another, chosen by a switch).
func (a *run) allMade(phi *ssa.Phi) bool {
	for _, e := range phi.Edges {
		if !a.madeHere(e) {
			return false
		}
	}
	return len(phi.Edges) > 0
}

// madeKey and madeAt are madeChain's memo: its question and answer.
type madeKey struct {
	acc  *access
	ctx  *context
	root *root
}

type madeAt struct {
	frames []frame
	held   []ssa.Value
	made   ssa.Value
}

// madeFramesOnce is madeFrames, worked out once per access, context and
// root.
func (a *run) madeFramesOnce(x site) ([]frame, ssa.Value) {
	m := a.madeChainOnce(x)
	return m.frames, m.made
}

// madeChainOnce is madeChain, worked out once per access, context and
// root.
func (a *run) madeChainOnce(x site) madeAt {
	k := madeKey{x.acc, x.ctx, x.root}
	if m, ok := a.made[k]; ok {
		return m
	}
	frames, held, made := a.madeChain(x)
	if a.made == nil {
		a.made = map[madeKey]madeAt{}
	}
	m := madeAt{frames, held, made}
	a.made[k] = m
	return m
}

// ctxPath is the call path that entered x's context (the one a finding
// shows), each function with the call in its caller that leads to it;
// the root's witness path where x's context is not its own function's.
// nil where a caller calls the function from more than one place.
func (a *run) ctxPath(x site) []callEdge {
	if x.ctx == nil || x.ctx.fn != x.fn {
		return x.root.path(x.fn)
	}
	var rev []callEdge
	seen := map[*context]bool{}
	for c := x.ctx; c != nil && !seen[c]; c = c.from {
		seen[c] = true
		e := callEdge{caller: c.fn}
		if c.from != nil {
			for _, cs := range a.callsOf(c.from.fn) {
				if cs.entered && slices.Contains(cs.callees, c.fn) || slices.Contains(cs.callbacks, c.fn) {
					if e.site != nil {
						return nil
					}
					e.site = cs.instr
				}
			}
			if e.site == nil {
				return nil
			}
		}
		rev = append(rev, e)
	}
	slices.Reverse(rev)
	return rev
}

// reachable is the functions a call of f can run, directly or through
// callees, callbacks and the goroutines it starts; memoised per f.
func (a *run) reachable(f *ssa.Function) map[*ssa.Function]bool {
	if m, ok := a.reach[f]; ok {
		return m
	}
	m := map[*ssa.Function]bool{f: true}
	work := []*ssa.Function{f}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if fn.Blocks == nil {
			continue
		}
		for _, cs := range a.callsOf(fn) {
			for _, fns := range [][]*ssa.Function{cs.callees, cs.callbacks, cs.sp.fns} {
				for _, g := range fns {
					if !m[g] {
						m[g] = true
						work = append(work, g)
					}
				}
			}
		}
	}
	if a.reach == nil {
		a.reach = map[*ssa.Function]map[*ssa.Function]bool{}
	}
	a.reach[f] = m
	return m
}

// startedOnMade reports whether y's goroutine is started, at a go
// statement of the function whose call made the object x accesses, with
// that object, and that statement cannot run before x in one call. Each
// call makes its own object and starts its own goroutine with it, so
// y's goroutine has x's object only if x's call started it, after x;
// whichever root first reached the statement. nats-streaming-server's
// newFileMsgStore, called both by a recovery goroutine and by the
// server's loop, recovers and trims its new store before it starts the
// store's background goroutine on it: the trimming is not concurrent
// with that goroutine, even though the store is shared with the file
// manager's callbacks by then.
func (a *run) startedOnMade(x, y site) bool {
	c := y.root
	call, ok := c.site.(*ssa.Go)
	if !ok {
		return false
	}
	frames, made := a.madeFramesOnce(x)
	if frames == nil || frames[0].fn != c.siteFn || reaches(c.site, frames[0].at) {
		return false
	}
	start, arg := a.startArg(y, false, nil)
	if start == nil {
		return false
	}
	args := goArgs(call, start)
	return arg < len(args) && objectOf(args[arg]) == made
}

// startedOnGiven reports whether y's goroutine is started, at a go
// statement of a function on x's call path, with the object x accesses,
// which that function was given (one of its parameters holds it, or
// holds it in fields that only ever hold what was new), and that
// statement cannot run before x in one call. Each call sets up the
// object it was given and then starts that object's goroutine: a
// goroutine another call started has another object, or the same one
// given twice, which the analysis takes as not happening, as it does
// where one goroutine makes both calls (before); whichever root first
// reached the statement. mochi-mqtt's badger hook is set up by its Init,
// which then starts the hook's collector: Init is called by main for a
// hook it adds itself and by the server's goroutine for the hooks its
// configuration lists. Where x runs in a goroutine that a call of the
// same function started (a session's heartbeat that reconnects by
// calling Open again), the second call is on the same object, and
// nothing is taken.
func (a *run) startedOnGiven(x, y site) bool {
	c := y.root
	call, ok := c.site.(*ssa.Go)
	if !ok {
		return false
	}
	for r := x.root; r != nil; r = r.parent {
		if r.siteFn == c.siteFn {
			return false
		}
	}
	if !onCtxChain(x, c.siteFn) {
		return false
	}
	path := a.ctxPath(x)
	at, i := x.acc.instr, len(path)-1
	for ; i >= 0 && path[i].caller != c.siteFn; i-- {
		at = path[i].site
	}
	if i < 0 || at == nil || reaches(call, at) {
		return false
	}
	fx, jx := a.startArg(x, true, c.siteFn)
	start, jy := a.startArg(y, true, nil)
	if fx != c.siteFn || start == nil {
		return false
	}
	args := goArgs(call, start)
	return jy < len(args) && a.paramHolding(c.siteFn, objectOf(args[jy]), false) == jx
}

// onCtxChain reports whether fn may be on x's call path: on the chain
// of contexts that entered x's (true where x's context is not its own
// function's, and the root's witness path is asked).
func onCtxChain(x site, fn *ssa.Function) bool {
	if x.ctx == nil || x.ctx.fn != x.fn {
		return true
	}
	for c, n := x.ctx, 0; c != nil && n < maxCtxChain; c, n = c.from, n+1 {
		if c.fn == fn {
			return true
		}
	}
	return false
}

// maxCtxChain bounds the contexts onCtxChain walks (a chain entered
// through a cycle of calls would not end).
const maxCtxChain = 256

// goArgs is what the go statement call hands the function start it
// runs: the call's arguments, then, for a function literal, what it
// captures (its free variables' bindings).
func goArgs(call *ssa.Go, start *ssa.Function) []ssa.Value {
	args := passed(call, start)
	if bound := freeBindings(call, start); bound != nil {
		args = append(slices.Clone(args), bound...)
	}
	return args
}

// startArg is the function y's goroutine starts with and which of its
// parameters (its free variables after them) holds the object y
// accesses, followed up y's contexts through parameters, and, with
// through, through loads of fields that only ever hold what was new
// when stored (freshLoad: the object y accesses is then one that
// parameter's object holds). Every call of a caller that enters the
// function must pass the same parameter of the caller's; nil if the
// object cannot be followed so. With stop, the object is followed up to
// that function only, which is returned with its parameter.
func (a *run) startArg(y site, through bool, stop *ssa.Function) (*ssa.Function, int) {
	if y.ctx == nil || y.ctx.fn != y.fn {
		return nil, 0
	}
	j := a.paramHolding(y.fn, objectOf(y.acc.base), through)
	seen := map[*context]bool{}
	for c := y.ctx; j >= 0 && !seen[c]; c = c.from {
		seen[c] = true
		if c.from == nil || c.fn == stop {
			return c.fn, j
		}
		vals, ok := a.enteringArgs(c, j)
		if !ok {
			return nil, 0
		}
		k := -1
		for _, v := range vals {
			i := a.paramHolding(c.from.fn, v, through)
			if i < 0 || k >= 0 && i != k {
				return nil, 0
			}
			k = i
		}
		j = k
	}
	return nil, 0
}

// enteringArgs is the object each call that enters context c passes as
// its function's parameter j, in the caller's function (c.from's); ok is
// false where a callback enters it, or a call passes no such parameter.
func (a *run) enteringArgs(c *context, j int) (vals []ssa.Value, ok bool) {
	for _, cs := range a.callsOf(c.from.fn) {
		if slices.Contains(cs.callbacks, c.fn) {
			return nil, false
		}
		if !cs.entered || !slices.Contains(cs.callees, c.fn) {
			continue
		}
		args := passed(cs.instr.(ssa.CallInstruction), c.fn)
		if j >= len(args) {
			return nil, false
		}
		vals = append(vals, objectOf(args[j]))
	}
	return vals, true
}

// paramHolding is the index of fn's parameter (its free variables after
// them) that v is, or, with through, that holds v in fields that only
// ever hold what was new (freshLoad); -1 if none.
func (a *run) paramHolding(fn *ssa.Function, v ssa.Value, through bool) int {
	for through {
		box, ok := a.freshLoad(v)
		if !ok {
			break
		}
		v = objectOf(box)
	}
	if j := paramOf(fn, v); j >= 0 {
		return j
	}
	if fv, ok := v.(*ssa.FreeVar); ok {
		if k := slices.Index(fn.FreeVars, fv); k >= 0 {
			return len(fn.Params) + k
		}
	}
	return -1
}

// startsApart reports whether x and y, accesses of one goroutine that
// runs many times at once, each touch the object its own run was started
// with, or one that object holds in fields that only ever hold what was
// new when stored (freshfields.go): the go statement hands each run an
// object made anew for it, so two runs touch two objects, and one run
// touches them in order. pulsar-client-go starts one event loop per
// partition producer it makes; each loop's batch container, made for its
// producer, is no other loop's.
func (a *run) startsApart(x, y *site) bool {
	r := x.root
	call, ok := r.site.(*ssa.Go)
	if y.root != r || !ok {
		return false
	}
	fx, jx := a.startArg(*x, true, nil)
	fy, jy := a.startArg(*y, true, nil)
	if fx == nil || fx != fy || jx != jy {
		return false
	}
	args := goArgs(call, fx)
	if jx >= len(args) {
		return false
	}
	made := a.renewedAt(objectOf(args[jx]))
	return made != nil && made.Parent() == call.Parent() && !reachesSame(call, call, made)
}
