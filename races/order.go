package races

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// site is an access as one root reaches it.
type site struct {
	root *root
	fn   *ssa.Function
	acc  *access
	held lockSet
	// heldKey is held's locks, sorted and joined: equal sets, equal keys.
	heldKey string
	heldID  int32 // held's number among the sets sites hold (interned)
	// own: how surely the accessed object is one the root's own code
	// made, in the instance that accesses it (ownership).
	own ownership
	// kept: the object is one the accessing goroutine made and has
	// handed to none but goroutines it started (unsharedAccess).
	kept bool
	// ctx is the context the access was made in: its call path is the
	// one a finding shows (report.go, where).
	ctx *context
	// objs is the allocations the accessed object can be (points); empty
	// when unknown.
	objs map[int]bool
	// ord is what orders the access through channels and atomics,
	// computed when first asked (chanOrders).
	ord *siteOrder
	// tk is the container the accessed object was taken from, worked
	// out when first asked (registeredAfter).
	tk *taken
}

// siteOrder is what a site signals after it and receives before it, up
// its call path (frames).
type siteOrder struct {
	done          bool
	signals, recv map[string]bool
	once          string // the Once whose Do runs the site (inOnce)
}

// ordered reports whether x and y cannot run at the same time because of
// how their roots were started: one root ran its access before starting
// the other (or the root that started it), or after waiting for it.
// distinct reports whether x and y are on objects each accessing
// instance made for itself: two instances (of one root or of two) that
// each made their object have two objects; within one root, an object
// reached through a captured variable is also the instance's own.
//
// With groups (ownership.go): two accesses of one root to objects its
// group owns are in one goroutine or on two objects; accesses of roots
// of two groups, each to what its group owns, are on two objects.
func distinct(x, y site) bool {
	if x.kept && !descends(y.root, x.root) || y.kept && !descends(x.root, y.root) {
		return true
	}
	if x.own == notOwn || y.own == notOwn {
		return false
	}
	if x.own >= ownMade && y.own >= ownMade || x.root == y.root {
		return true
	}
	groupOwn := func(o ownership) bool { return o == ownGroup || o >= ownMade }
	return groupOwn(x.own) && groupOwn(y.own) && x.root.group != y.root.group
}

// descends reports whether r was started, directly or not, by anc's
// code.
func descends(r, anc *root) bool {
	for p := r.parent; p != nil; p = p.parent {
		if p == anc {
			return true
		}
	}
	return false
}

// beforeParallel reports whether s is a parallel test's own access that
// runs only before the test calls t.Parallel: the go test runner runs
// that part while every other parallel test waits. (Through one witness
// path: a function the test calls both before and after t.Parallel may be
// taken as before, a missed race.)
func beforeParallel(s site) bool {
	r := s.root
	if r.top != r || r.parallel == nil {
		return false
	}
	at := s.acc.instr
	if s.fn != r.parallel.Parent() {
		p := r.path(s.fn) // the test first, then each callee with the call that reached it
		if len(p) < 2 || p[0].caller != r.parallel.Parent() || p[1].site == nil {
			return false
		}
		at = p[1].site
	}
	return !reaches(r.parallel, at)
}

func (a *run) ordered(x, y *site) bool {
	return a.spawnOrders(*x, *y) || a.spawnOrders(*y, *x) || a.chanOrders(x, y) || a.chanOrders(y, x) || a.onceOrders(x, y) || a.onceOrders(y, x) ||
		a.registeredAfter(x, y) || a.registeredAfter(y, x)
}

// chanOrders reports whether x happens before y through a channel or an
// atomic held in a field or package variable: after x, x's function (or
// a caller on x's call path, after the call that leads to x) closes the
// channel, sends on it or stores to the atomic (and cannot do so before),
// and y's function (or a caller on y's path, before the call that leads
// to y) reaches y only through a receive from the channel or a load of
// the atomic. A close that publishes what was written before it, read by
// whoever it wakes, is the common shape; a started flag stored once
// set-up is done and loaded before anything uses it is the other.
func (a *run) chanOrders(x, y *site) bool {
	signals, recv := a.orderOf(x).signals, a.orderOf(y).recv
	if len(signals) == 0 || len(recv) == 0 {
		return false
	}
	for c := range recv {
		if signals[c] {
			return true
		}
	}
	return false
}

// orderOf computes, once per site, the channels and atomics it signals
// after (up its call path) and receives before (up its call path and on
// through the starts of its goroutine).
func (a *run) orderOf(s *site) *siteOrder {
	if s.ord == nil {
		s.ord = &siteOrder{}
	}
	if s.ord.done {
		return s.ord
	}
	s.ord.done = true
	s.ord.once = inOnce(*s)
	s.ord.signals, s.ord.recv = map[string]bool{}, map[string]bool{}
	for _, f := range frames(*s, false) {
		for c := range a.signalsAfter(f) {
			s.ord.signals[c] = true
		}
	}
	for _, f := range frames(*s, true) {
		for c := range a.receivedBefore(f) {
			s.ord.recv[c] = true
		}
	}
	return s.ord
}

// signalsAfter is the channels and atomics f's function signals after
// f.at, and cannot before it; computed once per frame.
func (a *run) signalsAfter(f frame) map[string]bool {
	if m, ok := a.signalMemo[f]; ok {
		return m
	}
	m := map[string]bool{}
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			if c := signalled(instr); c != "" && reaches(f.at, instr) && !reaches(instr, f.at) {
				m[c] = true
			}
			if d, ok := instr.(*ssa.Defer); ok {
				for _, c := range deferredSignals(d) {
					if c != "" {
						m[c] = true // defer wg.Done(), defer close(ch): runs as the function returns, after f.at
					}
				}
			}
			if call, ok := instr.(*ssa.Call); ok && reaches(f.at, instr) && !reaches(instr, f.at) {
				for c := range a.signalsIn(call.Call.StaticCallee()) {
					m[c] = true // a helper that publishes: hooks.Add storing the list in an atomic
				}
			}
		}
	}
	a.signalMemo[f] = m
	return m
}

// signalsIn is the channels, atomics and WaitGroups fn signals in its own
// body (closes or sends on, stores to, calls Done on, a deferred one
// included): a call of fn after an access signals them after it, as the
// signal itself would there (hooks.Add storing the list that publishes a
// hook in an atomic). Not what fn's own callees signal: the further down
// a signal is, the less it says about the access.
func (a *run) signalsIn(fn *ssa.Function) map[string]bool {
	if fn == nil || fn.Blocks == nil || !a.p.ownFunc(fn) {
		return nil
	}
	if m, ok := a.signalsMemo[fn]; ok {
		return m
	}
	m := map[string]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c := signalled(instr); c != "" {
				m[c] = true
			}
			if d, ok := instr.(*ssa.Defer); ok {
				for _, c := range deferredSignals(d) {
					if c != "" {
						m[c] = true
					}
				}
			}
		}
	}
	a.signalsMemo[fn] = m
	return m
}

// receivedBefore is the channels received from and atomics loaded on
// every way to f.at in f's function; computed once per frame.
func (a *run) receivedBefore(f frame) map[string]bool {
	if m, ok := a.receiveMemo[f]; ok {
		return m
	}
	m := map[string]bool{}
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			for _, c := range receivedLocs(instr) {
				if c != "" && (dominates(instr, f.at) || waitsUnlessNil(instr, c, f.at)) {
					m[c] = true
				}
			}
			if call, ok := instr.(*ssa.Call); ok && dominates(instr, f.at) {
				for c := range a.alwaysReceives(call.Call.StaticCallee(), 0) {
					m[c] = true
				}
			}
		}
	}
	for b, ch := range receivingCases(f.fn) {
		// In the body of a select's case that received from ch.
		if c := chanLocation(ch); c != "" && b.Dominates(f.at.Block()) {
			m[c] = true
		}
	}
	a.receiveMemo[f] = m
	return m
}

// frame is a function on an access's call path and where in it the path
// is: the access itself in its own function, the call that leads to it
// in each caller.
type frame struct {
	fn *ssa.Function
	at ssa.Instruction
}

// maxFrames bounds how far up an access's call path order is looked for.
const maxFrames = 12

// frames is s's function and its callers on s's witness path, nearest
// first. With spawns, the path goes on through the go statement (or
// other start) of s's root into its starter's path, and so on: what a
// starter did before the start happens before everything the started
// goroutine does.
func frames(s site, spawns bool) []frame {
	out := []frame{{s.fn, s.acc.instr}}
	r, fn := s.root, s.fn
	for r != nil && len(out) < maxFrames {
		path := r.path(fn)
		for i := len(path) - 1; i > 0 && len(out) < maxFrames; i-- {
			if path[i].site == nil {
				break
			}
			out = append(out, frame{path[i-1].caller, path[i].site})
		}
		if !spawns || r.parent == nil || r.site == nil {
			break
		}
		out = append(out, frame{r.siteFn, r.site})
		r, fn = r.parent, r.siteFn
	}
	return out
}

// signalled is the channel instr closes or sends on, or the atomic it
// stores to, as a location (T.done, pkg.ready, T.started); "" for
// anything else.
func signalled(instr ssa.Instruction) string {
	switch x := instr.(type) {
	case *ssa.Send:
		return chanLocation(x.Chan)
	case *ssa.Call:
		if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" {
			return chanLocation(x.Common().Args[0])
		}
		if loc, op := atomicOp(x); op == atomicStore || op == atomicSwap {
			return loc
		}
		return waitGroupOp(x.Common(), "Done")
	}
	return ""
}

// waitGroupOp is the WaitGroup a call of its method name works on, as a
// location (T.wg, for a WaitGroup field or one a pointer field points
// to; pkg.wg), "" for any other call. A Done after an access orders it
// before whatever follows a Wait on the same WaitGroup, in any goroutine,
// not only in the one that started the goroutine that calls Done.
func waitGroupOp(c *ssa.CallCommon, name string) string {
	callee := c.StaticCallee()
	if callee == nil || callee.Name() != name || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" || len(c.Args) != 1 {
		return ""
	}
	if recv := callee.Signature.Recv(); recv == nil || recv.Type().String() != "*sync.WaitGroup" {
		return ""
	}
	v := c.Args[0]
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X // a *sync.WaitGroup held in a field
	}
	if loc := heldAt(v); loc != "" {
		return loc
	}
	return storedAt(v)
}

// receivedLocs is the channels instr surely receives from (a receive,
// or a select all of whose cases receive from one channel) or the atomic
// it loads, as locations.
func receivedLocs(instr ssa.Instruction) []string {
	var out []string
	switch x := instr.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			out = append(out, chanLocation(x.X))
		}
	case *ssa.Select:
		// A select receives from one of its cases' channels: from a
		// known one only when every case, and no default, receives
		// from it.
		loc := ""
		for i, st := range x.States {
			c := ""
			if st.Dir == types.RecvOnly {
				c = chanLocation(st.Chan)
			}
			if c == "" || i > 0 && c != loc {
				loc = ""
				break
			}
			loc = c
		}
		if x.Blocking && loc != "" {
			out = append(out, loc)
		}
	case *ssa.Call:
		if loc, op := atomicOp(x); op == atomicLoad || op == atomicSwap {
			out = append(out, loc)
		}
		if loc := waitGroupOp(x.Common(), "Wait"); loc != "" {
			out = append(out, loc)
		}
	}
	return out
}

// chanLocation names a channel loaded from a field or package variable.
func chanLocation(v ssa.Value) string {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		loc, _ := location(load.X)
		return loc
	}
	return ""
}

// spawnOrders reports whether x's root started (an ancestor of) y's root
// after x, or joined it before x.
func (a *run) spawnOrders(x, y site) bool {
	for c := y.root; c != nil; c = c.parent {
		if c.mux != nil && a.served(x, c) {
			return true // a handler of a mux served only after x (served.go)
		}
		if c.parent == x.root {
			return a.before(x.root, x.fn, x.acc.instr, x.acc.base, c.siteFn, c.site) || a.after(x.root, x.fn, x.acc.instr, c) || a.startedAfterMade(x, c)
		}
	}
	return a.joinedSibling(x, y) || a.startedOnMade(x, y) || a.startedOnGiven(x, y)
}

// diverge follows r's witness paths to fx (ending at ix) and to fs
// (ending at is) to the function where they part, and returns the
// instructions there that lead on to each; ok is false when the paths do
// not part at two different instructions of one function.
func diverge(r *root, fx *ssa.Function, ix ssa.Instruction, fs *ssa.Function, is ssa.Instruction) (nx, ns ssa.Instruction, ok bool) {
	px, ps := r.path(fx), r.path(fs)
	next := func(p []callEdge, d int, end ssa.Instruction) ssa.Instruction {
		if d+1 < len(p) {
			return p[d+1].site
		}
		return end
	}
	for d := 0; d < len(px) && d < len(ps) && px[d].caller == ps[d].caller; d++ {
		nx, ns = next(px, d, ix), next(ps, d, is)
		if nx != ns {
			return nx, ns, nx != nil && ns != nil
		}
	}
	return nil, nil, false
}

// before reports whether, in root r, the access ix in fx runs only before
// the instruction is in fs: where their call paths part, the first cannot
// run after the second. A root that starts with several functions (init,
// then main) runs them in order.
func (a *run) before(r *root, fx *ssa.Function, ix ssa.Instruction, base ssa.Value, fs *ssa.Function, is ssa.Instruction) bool {
	if sx, ss := startIndex(r, fx), startIndex(r, fs); !r.multi && sx >= 0 && ss >= 0 && sx != ss {
		return sx < ss // init, then main
	}
	nx, ns, ok := diverge(r, fx, ix, fs, is)
	if _, deferred := nx.(*ssa.Defer); deferred {
		return false // a deferred call runs as its function returns, after the rest
	}
	if !ok {
		return false
	}
	if def := a.freshDef(nx, base); def != nil {
		// The access is to an object made afresh on the way to it (in
		// a loop, each time round): only the start that follows the
		// same making can come after it.
		return !reachesSame(ns, nx, def)
	}
	return !reaches(ns, nx)
}

// freshDef is, when the access nx makes (in the function where the paths
// part) is through base, an object that function makes itself (an
// allocation, a call that returns a fresh object, one of those held as an
// interface or chosen by a phi; a field of one), the instruction that
// makes it anew (renewedAt, freshdef.go); nil otherwise.
func (a *run) freshDef(nx ssa.Instruction, base ssa.Value) ssa.Instruction {
	for i := 0; i < 8; i++ {
		fa, ok := base.(*ssa.FieldAddr)
		if !ok {
			break
		}
		base = fa.X
	}
	if base == nil {
		return nil
	}
	if d := a.renewedAt(base); d != nil && d.Parent() == nx.Parent() {
		return d
	}
	return nil
}

// startIndex is the index in r.fns of the function r's path to fn starts
// from, or -1.
func startIndex(r *root, fn *ssa.Function) int {
	p := r.path(fn)
	if len(p) == 0 {
		return -1
	}
	for i, f := range r.fns {
		if f == p[0].caller {
			return i
		}
	}
	return -1
}

// after reports whether, in root r, the access ix in fx runs only after r
// has waited for c: where their paths part, a wait that c signals (a
// WaitGroup's Wait, a channel receive) follows c's start and comes before
// the access on every path, and c is not started again after it.
func (a *run) after(r *root, fx *ssa.Function, ix ssa.Instruction, c *root) bool {
	nx, ns, ok := diverge(r, fx, ix, c.siteFn, c.site)
	if !ok {
		return false
	}
	joins := a.joinsOf(c)
	at := []ssa.Instruction{nx}
	if _, deferred := nx.(*ssa.Defer); deferred {
		at = exits(nx.Parent()) // a deferred call runs where the function returns
	}
	if ns != c.site && dominatesAll(ns, at) && a.waitsAfter(c.site, returns(c.siteFn), joins, c.sent) {
		return true // started and waited for inside a call that returned before
	}
	return a.waitsAfter(ns, at, joins, c.sent)
}

// waitsAfter reports whether every path from from, in its function, to
// each instruction of at waits for a goroutine with joins on the way:
// one wait dominating them all, or a wait (a receiving select case
// included) on every path.
func (a *run) waitsAfter(from ssa.Instruction, at []ssa.Instruction, joins map[string]bool, sent objSet) bool {
	fn := from.Parent()
	waits := map[ssa.Instruction]bool{}
	for _, j := range a.waitsIn(fn) {
		if waitsFor(j, joins) && reaches(from, j) && !reaches(j, from) {
			if dominatesAll(j, at) {
				return true
			}
			waits[j] = true
		}
	}
	received := map[*ssa.BasicBlock]bool{}
	for b, ch := range receivingCases(fn) {
		if !blockReaches(b, from.Block()) && a.receivesSent(ch, sent) {
			received[b] = true
		}
	}
	return (len(waits) > 0 || len(received) > 0) && covered(from, at, waits, received)
}

// returns is fn's return instructions.
func returns(fn *ssa.Function) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, ret)
		}
	}
	return out
}

// covered reports whether every path from from to an instruction of at
// passes one of waits, or enters one of the blocks received (a select's
// case that received from the goroutine's channel): a select with a
// timeout whose both ways receive
// (case be := <-opened: ...; case <-timeout: ...; be = <-opened) waits
// on every path, though no one receive does.
func covered(from ssa.Instruction, at []ssa.Instruction, waits map[ssa.Instruction]bool, received map[*ssa.BasicBlock]bool) bool {
	targets := map[ssa.Instruction]bool{}
	for _, x := range at {
		targets[x] = true
	}
	// scan walks instrs in order: false if it meets a target before a
	// wait; stop says a wait was met.
	scan := func(instrs []ssa.Instruction) (ok, stop bool) {
		for _, x := range instrs {
			if waits[x] {
				return true, true
			}
			if targets[x] {
				return false, true
			}
		}
		return true, false
	}
	if ok, stop := scan(from.Block().Instrs[index(from)+1:]); !ok {
		return false
	} else if stop {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Block().Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || received[b] {
			continue
		}
		seen[b] = true
		ok, stop := scan(b.Instrs)
		if !ok {
			return false
		}
		if !stop {
			work = append(work, b.Succs...)
		}
	}
	return true
}

// receivesSent reports whether ch is surely one of the channels sent
// (those a goroutine sends on or closes): every object it can be is.
func (a *run) receivesSent(ch ssa.Value, sent objSet) bool {
	objs := a.pts.objects(ch)
	if len(objs) == 0 || objs[unknownObj] {
		return false
	}
	for o := range objs {
		if !sent[o] {
			return false
		}
	}
	return true
}

// receivingCases is the blocks of fn that a select enters when one of
// its receiving cases is chosen, with the channel it received from: the
// SSA builder tests the chosen index (extract #0 of the select) against
// each case's number.
func receivingCases(fn *ssa.Function) map[*ssa.BasicBlock]ssa.Value {
	out := map[*ssa.BasicBlock]ssa.Value{}
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL {
			continue
		}
		ex, ok := cmp.X.(*ssa.Extract)
		k, isConst := cmp.Y.(*ssa.Const)
		if !ok || !isConst || ex.Index != 0 {
			continue
		}
		sel, ok := ex.Tuple.(*ssa.Select)
		if !ok || k.Value == nil {
			continue
		}
		i, exact := constant.Int64Val(k.Value)
		if exact && i >= 0 && int(i) < len(sel.States) && sel.States[i].Dir == types.RecvOnly {
			out[iff.Block().Succs[0]] = sel.States[i].Chan
		}
	}
	return out
}

// waitsIn is the instructions of fn that can wait for a goroutine (a
// WaitGroup's or an errgroup's Wait, a receive), found once per function.
func (a *run) waitsIn(fn *ssa.Function) []ssa.Instruction {
	if w, ok := a.waits[fn]; ok {
		return w
	}
	var out []ssa.Instruction
	all := map[string]bool{"wg": true, "chan": true}
	for _, b := range fn.Blocks {
		for _, j := range b.Instrs {
			if waitsFor(j, all) {
				out = append(out, j)
			}
		}
	}
	a.waits[fn] = out
	return out
}

// exits is where fn runs its deferred calls: each RunDefers, and each
// return it reaches without one (a panic's unwinding is not followed).
func exits(fn *ssa.Function) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.RunDefers); ok {
				out = append(out, instr)
			}
		}
	}
	return out
}

// dominatesAll reports whether j comes before each of at on every path.
func dominatesAll(j ssa.Instruction, at []ssa.Instruction) bool {
	for _, x := range at {
		if !dominates(j, x) {
			return false
		}
	}
	return len(at) > 0
}

// waitsFor reports whether instr waits in one of the ways joins lists.
func waitsFor(instr ssa.Instruction, joins map[string]bool) bool {
	switch x := instr.(type) {
	case *ssa.Call:
		if !joins["wg"] {
			return false
		}
		n := staticCallee(x)
		return n == "(*sync.WaitGroup).Wait" || n == "(*golang.org/x/sync/errgroup.Group).Wait"
	case *ssa.UnOp:
		return joins["chan"] && x.Op == token.ARROW
	}
	return false
}

func dominates(j, x ssa.Instruction) bool {
	if j.Block() == x.Block() {
		return index(j) < index(x)
	}
	return j.Block().Dominates(x.Block())
}

// joinsOf is how c's spawner can wait for it: "wg" if code c runs calls
// WaitGroup.Done (or c was started by a Go method that waits), "chan" if
// it sends on or closes a channel.
func (a *run) joinsOf(c *root) map[string]bool {
	if c.joins["scanned"] {
		return c.joins
	}
	c.joins["scanned"] = true
	c.sent = objSet{}
	for fn := range c.ctxs {
		scanJoins(fn, c.joins)
		a.sentOn(fn, c.sent)
	}
	return c.joins
}

// sentOn adds to sent the channels fn sends on or closes, as the
// points-to analysis knows them.
func (a *run) sentOn(fn *ssa.Function, sent objSet) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var ch ssa.Value
			switch x := instr.(type) {
			case *ssa.Send:
				ch = x.Chan
			case ssa.CallInstruction:
				if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" {
					ch = x.Common().Args[0]
				}
			}
			if ch != nil {
				for o := range a.pts.objects(ch) {
					sent[o] = true
				}
			}
		}
	}
}

// scanJoins adds to joins how fn's body lets a spawner wait for it.
func scanJoins(fn *ssa.Function, joins map[string]bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				joins["chan"] = true
			case ssa.CallInstruction:
				if staticCallee(x) == "(*sync.WaitGroup).Done" {
					joins["wg"] = true
				}
				if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" {
					joins["chan"] = true
				}
			}
		}
	}
}
