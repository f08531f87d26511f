package races

import (
	"fmt"
	"go/types"
	"hash/maphash"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// run is one analysis of one program.
type run struct {
	p       *program
	opts    Options
	locks   map[*ssa.Function]*bodyLocks
	roots   []*root
	spawns  map[spawnKey]*root // the roots started at a site, by top root
	aliases aliases            // pointer-to-lock fields and the locks they point at
	pts     *points            // which allocations each pointer can point into
	budget  *budget            // the memory the run may take
	effects map[effectKey]lockEffect
	// escaping memoises how a parameter's callee lets it go (escapekind.go).
	escaping    map[*ssa.Parameter]paramEscape
	pubMemo     map[pubKey]bool               // published, memoised
	renewMemo   map[ssa.Value]ssa.Instruction // renewedAt, memoised
	cellMemo    map[pubKey]bool               // cellShared, memoised
	wrappers    map[*ssa.Function]wrapped     // spawn wrappers (wrappers.go)
	fresh       map[resultKey]bool            // functions returning what they allocate (objects.go)
	freshSlices map[resultKey]bool            // functions returning new slices of new objects (objects.go)
	passes      map[resultKey]int             // the parameter a function returns (passback.go)
	deps        *depSources                   // dependencies' source, for the same question (depfresh.go)
	handMemo    map[handKey]bool              // handsOver, memoised (publish.go)
	atomics     map[string]bool               // locations sync/atomic functions apply to (atomics.go)
	// signalMemo and receiveMemo: what each frame signals after it and
	// receives before it (order.go).
	signalMemo, receiveMemo map[frame]map[string]bool
	waits                   map[*ssa.Function][]ssa.Instruction // waitsIn, memoised
	spawnMemo               map[ssa.Instruction]spawnFound      // spawnAt, memoised
	// shared is, by top root, the objects another goroutine of its
	// program can reach (escape.go); library says the roots are a
	// library's exported API.
	shared  map[*root]map[int]bool
	library bool
	// serving is what serves handlers' muxes (served.go), found once.
	serving *serveScan
	// owned is the fields that hold only what their object's group made;
	// groups says whether roots join their parents' groups (not in the
	// first walk, which finds manyStarters: the sites more than one
	// root starts a goroutine at). ownership.go.
	calls     map[*ssa.Function][]callSite // callsOf, memoised
	fnKeys    map[*ssa.Function]string     // fnKey, memoised
	owned     map[string]bool
	returnOwn map[returnKey]resultOwnership // returnedOwn, memoised for the walk
	// ownedReads records the owned fields the work in progress reads;
	// memoOwned is the owned fields the memos were worked out with
	// (ownedreads.go).
	ownedReads fieldSet
	memoOwned  map[string]bool
	ownDepth   int // how deep own is in calls and phis
	ownNesting int // how deep own is in itself
	// cellsOpen is the cells own is working out (cellOwn).
	cellsOpen map[cellKey]bool
	twins     map[*ssa.If]twin // twinLocks' answers
	// flags is the closed flags (closedflag.go); handed, the structs
	// each function is handed (handedStructs).
	flags        map[string]bool
	handed       map[*ssa.Function]map[string]bool
	groups       bool
	manyStarters map[[2]any]bool
	// setOnce is the fields only their object's maker sets (setonce.go).
	setOnce map[string]bool
	// handOver is the channel fields whose receives hand objects over
	// (handover.go).
	handOver map[string]bool
	// live is, for each function, the blocks that can run (deadcode.go).
	live map[*ssa.Function]blockSet
	// fresher is the fields that only hold what was new when stored
	// (freshfields.go).
	fresher map[string]bool
	// reach is the functions each function's call can run (madefirst.go).
	reach map[*ssa.Function]map[*ssa.Function]bool
	// made memoises madeFrames per access, context and root: one access
	// is paired with many (madefirst.go).
	made map[madeKey]madeAt
	// putIndex and keptMemo are registeredAfter's memos
	// (registered.go).
	putIndex map[string]*puts
	keptMemo map[keptKey]bool
	// recvAlways is what each function waits for before it returns
	// (order.go).
	recvAlways map[*ssa.Function]map[string]bool
	// signalsMemo is what each function signals anywhere (signalsIn).
	signalsMemo map[*ssa.Function]map[string]bool
	// memos is what each content of a function's contexts leads to, for
	// the walk (contentmemo.go); seed hashes the contents.
	memos map[memoKey][]*contentMemo
	// commonLock is, for two lock sets sites hold (by number), whether
	// they share a lock (report.go).
	commonLock *pairMemo
	seed       maphash.Seed
}

type spawnKey struct {
	top  *root
	site ssa.Instruction
}

// maxRoots bounds the roots a run follows; a program with more is
// analysed for the first ones, and the run says so.
const maxRoots = 5000

// InternalError is a bug in the analysis met while analysing: the run
// stops with it rather than crash the process, so that the caller can
// print it in its output format.
type InternalError struct {
	Value any
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: %v (a bug in guardvet races: please report it with this message and the stack below)\n%s", e.Value, e.Stack)
}

// Analyze runs the analysis on the packages patterns name. Packages that
// fail to load are left out and listed in the Result (Broken); the error
// is a *LoadError when none load, and an *InternalError for a bug.
func Analyze(patterns []string, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &InternalError{Value: r, Stack: debug.Stack()}
		}
	}()
	p, err := load(patterns, opts)
	if err != nil {
		return nil, err
	}
	a := &run{p: p, opts: opts, locks: map[*ssa.Function]*bodyLocks{}, spawns: map[spawnKey]*root{}, escaping: map[*ssa.Parameter]paramEscape{}, pubMemo: map[pubKey]bool{}, renewMemo: map[ssa.Value]ssa.Instruction{}, cellMemo: map[pubKey]bool{}, wrappers: map[*ssa.Function]wrapped{}, fresh: map[resultKey]bool{}, freshSlices: map[resultKey]bool{}, passes: map[resultKey]int{}, deps: newDepSources(p.fset, opts.Env, opts.Dir), handMemo: map[handKey]bool{}, waits: map[*ssa.Function][]ssa.Instruction{}, spawnMemo: map[ssa.Instruction]spawnFound{}, signalMemo: map[frame]map[string]bool{}, receiveMemo: map[frame]map[string]bool{}, recvAlways: map[*ssa.Function]map[string]bool{}, signalsMemo: map[*ssa.Function]map[string]bool{}, effects: map[effectKey]lockEffect{}, calls: map[*ssa.Function][]callSite{}, fnKeys: map[*ssa.Function]string{}, live: map[*ssa.Function]blockSet{}, twins: map[*ssa.If]twin{}, seed: maphash.MakeSeed()}
	own := p.ownFuncs()
	a.aliases = findAliases(own)
	progress(opts, "following pointers")
	a.budget = newBudget(opts.MemoryLimit)
	a.pts = newPoints(a.pointsScope(own), p.callees, a.deps.fresh, a.factory, a.budget)
	a.flags = a.flagFields(own)
	a.handOverChans() // before anything consults it (handover.go)
	progress(opts, "following goroutine roots")
	a.walkOwned(own)
	if a.budget.err != nil {
		return nil, a.budget.err
	}
	a.sharedObjects(own)
	progress(opts, "pairing accesses")
	res = a.report()
	if a.budget.err != nil {
		return nil, a.budget.err
	}
	return res, nil
}

// walk finds the roots and traverses each, from the top roots.
func (a *run) walk() {
	a.keepMemos()
	a.roots = nil
	a.spawns = map[spawnKey]*root{}
	work := a.topRoots()
	for len(work) > 0 && len(a.roots) < maxRoots && a.budget.err == nil {
		r := work[0]
		work = work[1:]
		r.index = len(a.roots)
		a.roots = append(a.roots, r)
		work = append(work, a.traverse(r)...)
	}
}

// reached is the functions r's walk reached, in a fixed order: what is
// computed from them (ownership, the freshness of results, sites) then
// comes out the same on every run.
func (a *run) reached(r *root) []*ssa.Function {
	fns := make([]*ssa.Function, 0, len(r.ctxs))
	for fn := range r.ctxs {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return a.fnKey(fns[i]) < a.fnKey(fns[j]) })
	return fns
}

// fnKey is fn's full name, worked out once.
func (a *run) fnKey(fn *ssa.Function) string {
	k, ok := a.fnKeys[fn]
	if !ok {
		k = fn.String()
		a.fnKeys[fn] = k
	}
	return k
}

// bodyLocksOf is fn's lock dataflow, computed once.
func (a *run) bodyLocksOf(fn *ssa.Function) *bodyLocks {
	bl := a.locks[fn]
	if bl == nil {
		env := a.lockEnv(nil)
		env.flagged = true
		bl = analyseLocks(fn, env)
		a.locks[fn] = bl
	}
	return bl
}

// lockEnv is the dataflow's environment, with the parameters consts
// fixes (nil for none).
func (a *run) lockEnv(consts map[*ssa.Parameter]bool) lockEnv {
	return lockEnv{canon: a.aliases, consts: consts, flags: a.flags, twins: a.twins,
		effects: func(call ssa.CallInstruction) counts { return a.callEffectIn(call, consts) },
		okDelta: func(call *ssa.Call) counts { return a.okDeltaIn(call, consts) }}
}

// callEffect is a call's net effect on locks: what every function it can
// call does (the least of their effects), none if it calls none of the
// program's functions.
func (a *run) callEffect(call ssa.CallInstruction) counts {
	return a.callEffectIn(call, nil)
}

// callEffectIn is callEffect for a call in a body analysed with its
// parameters consts fixed: a parameter so fixed, passed on, is that
// constant for the callee too (a generic method's instance passing its
// flag to the generic body it runs).
func (a *run) callEffectIn(call ssa.CallInstruction, consts map[*ssa.Parameter]bool) counts {
	var out counts
	for i, e := range a.calleeEffects(call, consts) {
		if i == 0 {
			out = e.all
		} else {
			out = meet(out, e.all)
		}
	}
	return out
}

// okDeltaIn is what a call's callees do to locks, on top of callEffect,
// on the paths where its error result is nil: a function that takes a
// lock and releases it before each error return (bbolt's beginRWTx)
// leaves it held when it succeeds.
func (a *run) okDeltaIn(call *ssa.Call, consts map[*ssa.Parameter]bool) counts {
	var all, ok counts
	for i, e := range a.calleeEffects(call, consts) {
		if i == 0 {
			all, ok = e.all, e.ok
		} else {
			all, ok = meet(all, e.all), meet(ok, e.ok)
		}
	}
	return minus(ok, all)
}

// calleeEffects is the effects of the functions a call can run; a
// static callee passed constant booleans is taken with those fixed (a
// Begin(true) that starts a writable transaction takes the writer's
// lock, though Begin(false) takes another).
func (a *run) calleeEffects(call ssa.CallInstruction, callerConsts map[*ssa.Parameter]bool) []lockEffect {
	callees := a.p.callees(call.Parent(), call)
	out := make([]lockEffect, 0, len(callees))
	for _, callee := range callees {
		var consts map[*ssa.Parameter]bool
		if callee == call.Common().StaticCallee() {
			consts = constArgs(call.Common(), callee, callerConsts)
		}
		out = append(out, a.effectOf(callee, consts))
	}
	return out
}

// effectOf is a function's net effect on locks (effect), with the
// parameters consts fixes, computed once; a function of a dependency, or
// one whose effect is being computed (a cycle of calls), has none.
func (a *run) effectOf(fn *ssa.Function, consts map[*ssa.Parameter]bool) lockEffect {
	k := effectKey{fn, constsKey(fn, consts)}
	if e, ok := a.effects[k]; ok {
		return e
	}
	a.effects[k] = lockEffect{}
	if !a.follows(fn) {
		return lockEffect{}
	}
	bl := a.bodyLocksOf(fn)
	if consts != nil || flagBranches(fn) {
		bl = analyseLocks(fn, a.lockEnv(consts)) // its callers see what it does, not what it assumes
	}
	e := effect(fn, bl, a.lockEnv(nil))
	a.effects[k] = e
	return e
}

// follows reports whether a root's traversal enters fn: a body of the
// packages named, or a wrapper (a bound method, an interface method's
// pointer wrapper) that calls one.
func (a *run) follows(fn *ssa.Function) bool {
	return a.p.ownFunc(fn) || fn.Synthetic != "" && fn.Blocks != nil
}

// traverse computes r's entry lock sets (the intersection, over the calls
// that reach each function, of the locks held at the call) and returns
// the roots r's code starts.
func (a *run) traverse(r *root) []*root {
	r.ctxs = map[*ssa.Function][]*context{}
	r.via = map[*ssa.Function]callEdge{}
	type item struct {
		fn *ssa.Function
		c  *context
	}
	var work []item
	queued := map[*context]bool{}
	queue := func(fn *ssa.Function, c *context) {
		if !queued[c] {
			queued[c] = true
			work = append(work, item{fn, c})
		}
	}
	enter := func(fn *ssa.Function, in entry, from callEdge) {
		if !a.follows(fn) {
			return
		}
		if _, seen := r.via[fn]; !seen {
			r.via[fn] = from
		}
		cs := r.ctxs[fn]
		same, exact := sameContext(cs, in)
		inPseudo := in.pseudo
		for i, c := range cs {
			if i == same {
				changed := meetOrigins(c.origins, in.origins)
				if !exact {
					if next := validFlags(intersect(c.entry, in.held)); !next.equal(c.entry) {
						c.entry, c.pseudo, changed = next, hasPseudo(next), true
					}
				}
				if next, grew := joinParams(c.params, in.params); grew {
					c.params, changed = next, true
				}
				if changed {
					c.way = nil
					queue(fn, c)
				}
				return
			}
		}
		if len(cs) < maxContexts {
			c := &context{entry: in.held, pseudo: inPseudo, origins: slices.Clone(in.origins), params: in.params, fn: fn, from: in.from, way: in.way}
			r.ctxs[fn] = append(cs, c)
			queue(fn, c)
			return
		}
		// Too many ways in: two contexts become one, the pair that
		// loses the fewest locks (nearest); the way in takes the freed
		// place if it is not one of them.
		i, j := nearest(cs, in.held, inPseudo)
		if j < 0 {
			if absorb(cs[i], in.held, in.origins, in.params) {
				queue(fn, cs[i])
			}
			return
		}
		if absorb(cs[i], cs[j].entry, cs[j].origins, cs[j].params) {
			queue(fn, cs[i])
		}
		c := &context{entry: in.held, pseudo: inPseudo, origins: slices.Clone(in.origins), params: in.params, fn: fn, from: in.from, way: in.way}
		cs[j] = c
		queue(fn, c)
	}
	for _, fn := range r.fns {
		enter(fn, entry{held: r.handed, origins: r.origins[fn], params: r.params[fn]}, callEdge{})
	}
	var started []*root
	for len(work) > 0 && a.budget.step() {
		it := work[0]
		work = work[1:]
		queued[it.c] = false
		started = append(started, a.visit(r, it.fn, it.c, enter)...)
	}
	return started
}

// visit enters, from fn in context c, each function fn calls, with the
// locks held at the call, and returns the roots fn starts.
func (a *run) visit(r *root, fn *ssa.Function, c *context, enter func(*ssa.Function, entry, callEdge)) []*root {
	var started []*root
	calls := a.callsOf(fn)
	ways := a.waysIn(fn, c, calls)
	for i, cs := range calls {
		if cs.spawns {
			if child := a.started(r, fn, c, cs.instr, cs.sp); child != nil {
				started = append(started, child)
			}
		}
		for k := range ways[i] {
			w := &ways[i][k]
			in := w.in
			in.from, in.way = c, w
			enter(w.callee, in, callEdge{caller: fn, site: cs.instr})
		}
	}
	return started
}

// targets is the functions a call can reach from fn in context c: its
// callees, and for a call through an interface only the methods of the
// types its receiver can be there. The call graph resolves such a call
// for every caller at once (sarama's encode(e encoder) reaching every
// message type's encode); in a context the receiver points into objects
// of a few types. Only where every object it can be is known, of a
// known type, and every method is on a pointer (a value in an interface
// is not an object the points-to analysis follows).
func (a *run) targets(fn *ssa.Function, c *context, cs callSite) []*ssa.Function {
	common := cs.site.Common()
	if !common.IsInvoke() && common.StaticCallee() == nil {
		if set, ok := a.refined(fn, c, common.Value, 0); ok && len(set) == 1 && set[externalObj] {
			return nil // the user's function: none of the program's
		}
	}
	if len(cs.callees) < 2 || !a.pts.tracked(common.Value) {
		return cs.callees
	}
	return a.narrow(common, cs.callees, a.objectsIn(fn, c, common.Value))
}

// narrow is the callees of a call through an interface or a function
// value that the objects the value can be (objs) can run: for an
// interface, the method each object's type has by the call's name (its
// own, or one promoted from a field it embeds); for a function value,
// the functions and method values it can be. All of callees where that
// is unknown, or where the call graph and the points-to analysis
// disagree (trust neither).
func (a *run) narrow(common *ssa.CallCommon, callees []*ssa.Function, objs objSet) []*ssa.Function {
	var match func(*ssa.Function) bool
	if common.IsInvoke() {
		want := map[*types.Func]bool{}
		if !a.methodsOf(objs, common.Method, want, 0) {
			return callees
		}
		match = func(callee *ssa.Function) bool {
			m, ok := callee.Object().(*types.Func)
			return ok && want[m.Origin()]
		}
	} else {
		can := map[*ssa.Function]bool{}
		bound := map[types.Object]bool{} // methods whose method values the value can be
		for o := range objs {
			if o == externalObj {
				continue // the user's code runs none of the callees
			}
			f, ok := a.pts.fnOf[o]
			if !ok {
				return callees
			}
			can[f] = true
			if strings.HasPrefix(f.Synthetic, "bound method wrapper") {
				bound[f.Object()] = true
			}
		}
		match = func(callee *ssa.Function) bool {
			return can[callee] || callee.Object() != nil && bound[callee.Object()]
		}
	}
	var out []*ssa.Function
	for _, callee := range callees {
		if match(callee) {
			out = append(out, callee)
		}
	}
	if len(out) == 0 {
		return callees
	}
	return out
}

// methodsOf adds to want the method named like m that each object of
// objs has by its type: its own, one promoted from a struct it embeds, or
// through an interface it embeds, the method of what that field holds.
// False if that is unknown for one of them.
func (a *run) methodsOf(objs objSet, m *types.Func, want map[*types.Func]bool, depth int) bool {
	for o := range objs {
		if a.pts.backing[o] {
			continue // a slice's array, a map: the value's box says its type
		}
		t, ok := a.pts.objType[o]
		if o == unknownObj || !ok || depth > 4 {
			return false
		}
		if _, named := types.Unalias(t).(*types.Named); !named {
			continue // a function literal, a number: no methods (an interface holds a named type's box)
		}
		obj, index, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		f, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		if recv := f.Signature().Recv(); recv == nil || !types.IsInterface(recv.Type()) {
			want[f.Origin()] = true
			continue
		}
		// Promoted from an embedded interface: what that field holds.
		held, ok := a.embedded(o, t, index[:len(index)-1])
		if !ok || !a.methodsOf(held, m, want, depth+1) {
			return false
		}
	}
	return true
}

// embedded is what the field of obj (of type t) at the path of embedded
// fields index holds, where the path ends at an interface.
func (a *run) embedded(obj int, t types.Type, index []int) (objSet, bool) {
	cur := objSet{obj: true}
	for _, f := range index {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || f >= st.NumFields() {
			return nil, false
		}
		if cur, ok = a.pts.fieldsOf(cur, f); !ok {
			return nil, false
		}
		t = st.Field(f).Type()
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Interface:
			if cur, ok = a.pts.contents(cur); !ok {
				return nil, false
			}
		}
	}
	return cur, true
}

// callSite is what a walk needs of one call or go statement of a
// function, worked out once for every walk and visit.
type callSite struct {
	instr     ssa.Instruction
	site      ssa.CallInstruction
	sp        spawn
	spawns    bool // it starts goroutines (sp)
	entered   bool // a call (not a go statement): its callees are entered
	callees   []*ssa.Function
	callbacks []*ssa.Function
}

// callsOf is fn's calls and go statements, but lock operations.
func (a *run) callsOf(fn *ssa.Function) []callSite {
	if cs, ok := a.calls[fn]; ok {
		return cs
	}
	var out []callSite
	for _, b := range fn.Blocks {
		if !a.canRun(b) {
			continue // under a branch on a constant that goes the other way
		}
		for _, instr := range b.Instrs {
			site, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			sp, spawns := a.spawnAt(fn, instr)
			call, isCall := instr.(*ssa.Call)
			if isCall && !spawns {
				if _, lock := asLockOp(call); lock {
					continue
				}
			}
			cs := callSite{instr: instr, site: site, sp: sp, spawns: spawns, entered: !spawns || isCall}
			if cs.entered {
				cs.callees = a.p.callees(fn, site)
				cs.callbacks = a.callbacks(site, spawns)
			}
			out = append(out, cs)
		}
	}
	a.calls[fn] = out
	return out
}

// passed is what a call passes to each of callee's parameters, the
// receiver first for a call through an interface; nil when they do not
// line up (a bound method's wrapper, a variadic mismatch).
func passed(site ssa.CallInstruction, callee *ssa.Function) []ssa.Value {
	common := site.Common()
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	if len(args) != len(callee.Params) || len(args) == 0 {
		return nil
	}
	return args
}

// boundArgs is, for a call through a function value that runs a method
// value (callee, a method, its receiver bound in the closure called:
// e.HTTPErrorHandler(err, c) running DefaultHTTPErrorHandler), the
// arguments for callee's parameters, nil in the receiver's place; nil
// for any other call.
func boundArgs(site ssa.CallInstruction, callee *ssa.Function) []ssa.Value {
	common := site.Common()
	if callee.Signature.Recv() == nil || common.IsInvoke() || common.StaticCallee() != nil || len(common.Args)+1 != len(callee.Params) {
		return nil
	}
	return append([]ssa.Value{nil}, common.Args...)
}

// started makes the root sp starts at instr in fn, reached from r, once
// per top root; nil if it was made already or starts nothing followed.
func (a *run) started(r *root, fn *ssa.Function, c *context, instr ssa.Instruction, sp spawn) *root {
	k := spawnKey{top: r.top, site: instr}
	if old := a.spawns[k]; old != nil {
		a.startedAgain(old, r, fn, c, instr)
		return nil
	}
	var fns []*ssa.Function
	for _, f := range sp.fns {
		if a.follows(f) {
			fns = append(fns, f)
		}
	}
	if len(fns) == 0 {
		return nil
	}
	child := &root{
		label: sp.label, fns: fns, top: r.top, parent: r, site: instr, siteFn: fn,
		multi: sp.multi || r.multi || inLoop(instr),
		joins: map[string]bool{}, // its own: joinsOf adds to it
	}
	child.assumedMulti = !sp.multi && !inLoop(instr) && (r.assumed || r.assumedMulti)
	child.group = child
	child.params = a.spawnParams(instr, fns)
	child.handed = a.handedLocks(fn, c, instr, fns)
	child.spanned = a.spanLocks(fn, c, instr)
	if a.joinsGroup(r, fn, instr, sp) {
		child.group = r.group
	}
	child.origins = a.startOrigins(child, fn, c, instr)
	if sp.mux != nil {
		if objs := a.pts.objects(sp.mux); len(objs) > 0 && !objs[unknownObj] {
			child.mux = objs
		}
	}
	if sp.perRequest {
		child.origins = perRequestOrigins(fns)
	}
	for k, v := range sp.joins {
		child.joins[k] = v
	}
	a.spawns[k] = child
	return child
}

// handedLocks is the locks the spawner holds at the go statement instr
// (in fn, reached in context c) that every function it starts releases
// without taking them (sarama's Broker.Open: b.lock.Lock(); go
// withRecover(func() { defer b.lock.Unlock(); ... })): the spawner hands
// them over, and the goroutine runs holding them.
func (a *run) handedLocks(fn *ssa.Function, c *context, instr ssa.Instruction, fns []*ssa.Function) lockSet {
	if _, ok := instr.(*ssa.Go); !ok {
		return nil
	}
	var out lockSet
	for k := range a.bodyLocksOf(fn).held(instr, c.entry) {
		released := true
		for _, f := range fns {
			released = released && a.effectOf(f, nil).all[k] < 0
		}
		if released {
			if out == nil {
				out = lockSet{}
			}
			out[k] = true
		}
	}
	return out
}

// spawnParams is what the go statement instr passes each parameter of
// each function it starts, where the points-to analysis knows less of
// the parameter: worked out from the statement alone, not from the
// context that reached it, so that it holds for every root that reaches
// the statement.
func (a *run) spawnParams(instr ssa.Instruction, fns []*ssa.Function) map[*ssa.Function][]objSet {
	site, ok := instr.(*ssa.Go)
	if !ok {
		return nil
	}
	var out map[*ssa.Function][]objSet
	for _, f := range fns {
		var ps []objSet
		for i, arg := range passed(site, f) {
			set := a.pts.objects(arg)
			if len(set) == 0 || set[unknownObj] || len(set) >= len(a.pts.objects(f.Params[i])) {
				continue
			}
			if ps == nil {
				ps = make([]objSet, len(f.Params))
			}
			ps[i] = set
		}
		if fv := a.freeVarObjects(site.Parent(), nil, site.Common(), f); fv != nil {
			ps = withFreeVars(ps, f, fv)
		}
		if ps != nil {
			if out == nil {
				out = map[*ssa.Function][]objSet{}
			}
			out[f] = ps
		}
	}
	return out
}

// path is the witness call path from r's start to fn: the functions and
// the calls between them, r's first function first.
func (r *root) path(fn *ssa.Function) []callEdge {
	if p, ok := r.paths[fn]; ok {
		return p
	}
	if r.paths == nil {
		r.paths = map[*ssa.Function][]callEdge{}
	}
	p := r.walkPath(fn)
	r.paths[fn] = p
	return p
}

// walkPath computes path.
func (r *root) walkPath(fn *ssa.Function) []callEdge {
	var rev []callEdge
	seen := map[*ssa.Function]bool{}
	for fn != nil && !seen[fn] {
		seen[fn] = true
		e := r.via[fn]
		rev = append(rev, callEdge{caller: fn, site: e.site})
		fn = e.caller
	}
	out := make([]callEdge, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
