package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// argOrigins is, for each parameter of callee at a call from fn (the
// receiver first, for a call through an interface), whether its argument
// points into an object the root's own code allocated (an own object, of
// one instance of the root).
func (a *run) argOrigins(fn *ssa.Function, c *context, site ssa.CallInstruction, callee *ssa.Function) []ownership {
	args := passed(site, callee)
	if args == nil {
		args = boundArgs(site, callee) // the receiver bound: not followed
	}
	var out []ownership
	for i, arg := range args {
		if arg == nil {
			continue
		}
		o := a.own(fn, c, arg)
		if o >= ownMade {
			o = ownMade
			if a.unsharedAt(fn, c, arg, site, toAnyone) {
				o = ownFresh
			} else if a.unsharedAt(fn, c, arg, site, beyondSpawned) {
				o = ownKept
			}
		}
		if o != notOwn {
			if out == nil {
				out = make([]ownership, len(args))
			}
			out[i] = o
		}
	}
	return a.boundOrigins(fn, c, site, callee, out)
}

// unsharedAt reports whether arg, passed at site, is an object no
// goroutine but fn's (to: toAnyone), or none but fn's and those it
// started (beyondSpawned), can have reached yet (unsharedBefore); the
// call itself may publish it: what the callee does before that is still
// unseen by others. A deferred call runs after the rest of fn, so its
// arguments are not.
func (a *run) unsharedAt(fn *ssa.Function, c *context, arg ssa.Value, site ssa.CallInstruction, to scope) bool {
	if _, deferred := site.(*ssa.Defer); deferred {
		return false
	}
	return a.unsharedBefore(fn, c, arg, site, false, to)
}

// unsharedAccess reports whether acc, in fn in context c, is on an
// object no goroutine but the accessing one (to: toAnyone), or none but
// it and those it started (beyondSpawned), can have reached yet: set-up
// on an object its maker has not handed out (a constructor's helpers),
// or has handed only to the workers it starts with it. Another instance
// of its root, or a root it did not start, cannot touch it.
func (a *run) unsharedAccess(fn *ssa.Function, c *context, acc *access, to scope) bool {
	return a.unsharedBefore(fn, c, objectOf(acc.base), acc.instr, true, to)
}

// unsharedBefore reports whether v, in fn in context c, is an object
// its goroutine made and has not published (to) before instr (or by
// instr, with self): an allocation of fn; a parameter every call in c
// passes such an object; what a call returns that hands over what it
// made (handedOver).
func (a *run) unsharedBefore(fn *ssa.Function, c *context, v ssa.Value, instr ssa.Instruction, self bool, to scope) bool {
	if box, ok := a.freshLoad(v); ok && a.unsharedBefore(fn, c, box, instr, self, to) && !a.published(v, instr, self, to) {
		// What a field that only holds new objects holds, of an
		// object no other goroutine has (freshfields.go).
		return true
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		if capturedCell(x) != nil {
			return !a.cellShared(x, instr, to)
		}
		return !a.published(x, instr, self, to)
	case *ssa.Parameter:
		least := ownFresh
		if to == beyondSpawned {
			least = ownKept
		}
		return originAt(c.origins, paramOf(fn, x)) >= least && !a.published(x, instr, false, to)
	case *ssa.Call, *ssa.Extract:
		if arg := a.passedBack(x); arg != nil {
			// A callee that hands back the object it was passed
			// (hostInfoFromMap filling the new HostInfo it is given;
			// passback.go).
			return a.unsharedBefore(fn, c, arg, instr, self, to) && !a.published(x, instr, false, to)
		}
		return (poolGet(x) || a.handedOver(x, to)) && !a.published(x, instr, false, to)
	case *ssa.TypeAssert:
		return !x.CommaOk && a.unsharedBefore(fn, c, x.X, instr, self, to) && !a.published(x, instr, self, to)
	case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
		// Another view of such an object (a listener its factory made,
		// held as an interface value): unshared while neither view has
		// been published.
		return a.unsharedBefore(fn, c, converted(x), instr, self, to) && !a.published(x, instr, self, to)
	case *ssa.Convert:
		// The same memory seen as another type through unsafe.Pointer
		// (a header viewed in a byte array the call made).
		in := converted(x)
		return in != nil && a.unsharedBefore(fn, c, in, instr, self, to) && !a.published(x, instr, self, to)
	case *ssa.IndexAddr:
		// An element of an array or slice no other goroutine has (a
		// constructor filling the shards it made: s := &c.shards[i]).
		return a.unsharedBefore(fn, c, x.X, instr, self, to)
	case *ssa.FieldAddr:
		// A struct held in such an object's field (badger's Open
		// calling db.vlog.open(db) on the DB it made).
		return a.unsharedBefore(fn, c, x.X, instr, self, to)
	case *ssa.MakeSlice, *ssa.MakeMap:
		return !a.published(x, instr, self, to)
	case *ssa.Phi:
		// One of several such objects, by the way taken (a pool's, or
		// a new one when the pool is empty: fasthttp's acquireCtx).
		return a.unsharedPhi(fn, c, x, instr, self, to) && !a.published(x, instr, self, to)
	case *ssa.UnOp:
		return a.unsharedLoad(fn, c, x, instr, self, to)
	case *ssa.Field:
		return a.unsharedStored(fn, c, x, instr, self, to)
	}
	return false
}

// unsharedLoad is unsharedBefore for x, a load or a receive.
func (a *run) unsharedLoad(fn *ssa.Function, c *context, x *ssa.UnOp, instr ssa.Instruction, self bool, to scope) bool {
	if r := a.recvOf(x); r != nil {
		// Taken from a channel that hands objects over, as from a
		// sync.Pool (handover.go).
		return !a.published(r, instr, self, to)
	}
	if ix, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL && a.freshElems(ix.X) {
		// An element of a new slice of new objects a call returned:
		// unshared while the slice and the element are.
		return a.unsharedBefore(fn, c, ix.X, instr, self, to) && !a.published(x, instr, self, to)
	}
	// What an owned field of such an object holds (the oracle a
	// database's constructor made for it, db.orc): reached only
	// through that object, so no goroutine but those it reached has
	// it either.
	if cell, isCell := x.X.(*ssa.Alloc); isCell && x.Op == token.MUL && readOnlyCaptured(cell) {
		// A parameter function literals capture lives in a cell
		// (initMaps' m, captured by the constructors it hands
		// closures to): the parameter.
		if p := storedParam(cell); p != nil {
			return a.unsharedBefore(fn, c, p, instr, self, to)
		}
	}
	if alloc := cellAlloc(x); alloc != nil {
		// A variable function literals capture, set to one
		// allocation (Open's db, captured by the goroutines it
		// starts): that allocation.
		return a.unsharedBefore(fn, c, alloc, instr, self, to)
	}
	if cell := capturedCell(x.X); cell != nil && x.Op == token.MUL && cell.Parent() == fn {
		// Set to one new object a call hands over (franz-go's
		// mergeSpan: m = recBuf.newRecordBatchN(total), a named
		// result its function literals use): that object.
		if w := storedOnce(cell, func(v ssa.Value) bool { return a.handedOver(v, to) }); w != nil {
			return a.unsharedBefore(fn, c, w, instr, self, to) && !a.published(x, instr, self, to)
		}
	}
	fa, ok := x.X.(*ssa.FieldAddr)
	if !ok || x.Op != token.MUL {
		return false
	}
	if !a.isOwned(fieldKey(fa.X.Type(), fa.Field)) {
		return a.unsharedStored(fn, c, x, instr, self, to)
	}
	return a.unsharedBefore(fn, c, objectOf(fa.X), instr, self, to) && !a.published(x, instr, self, to)
}

// unsharedStored is unsharedBefore for v, a field of an object fn made
// and has not published, that only the object's maker sets: what fn
// stored there (setonce.go).
func (a *run) unsharedStored(fn *ssa.Function, c *context, v ssa.Value, instr ssa.Instruction, self bool, to scope) bool {
	w, obj := a.stored(fn, v, 0)
	if w == nil || a.published(obj, instr, false, to) {
		return false
	}
	return a.unsharedBefore(fn, c, w, instr, self, to) && !a.published(v, instr, self, to)
}

func originAt(x []ownership, i int) ownership {
	if i >= 0 && i < len(x) {
		return x[i]
	}
	return notOwn
}

// meetOrigins keeps in old, for each parameter, the lesser ownership
// new agrees on, and reports whether old changed.
func meetOrigins(old, new []ownership) bool {
	changed := false
	for i := range old {
		if n := originAt(new, i); n < old[i] {
			old[i] = n
			changed = true
		}
	}
	return changed
}

// ownership is how surely an object is one instance of a root's own.
type ownership uint8

const (
	notOwn ownership = iota
	// ownGroup: made by a goroutine of the accessing root's group, in
	// the same instance of the group (a handler and the goroutines it
	// starts once each): passed to the root by its parent when it was
	// started, or loaded from an owned field of such an object. Another
	// instance of the group has another object; another root of the
	// same instance may have the same one.
	ownGroup
	// ownHere: reached through a variable a function literal captured
	// from the function that made it; its own in the instance that made
	// the literal, if that instance runs it (the same root).
	ownHere
	// ownMade: allocated by the root's own code (directly, or by a call
	// that returns what it allocates) and reached without a load: no
	// other instance of any root can reach it except through a copy
	// published elsewhere, whose accesses are not own.
	ownMade
	// ownKept: passed, as a parameter, an object the caller made and
	// had published at the call to none but goroutines it started
	// itself (unsharedAt, beyondSpawned).
	ownKept
	// ownFresh: passed, as a parameter, an object the caller made and
	// had not published at the call (unsharedAt): until the callee
	// publishes it, no other goroutine can reach it.
	ownFresh
)

// own reports whether v, in fn, points into an object r's own code
// allocated: an allocation of fn, a field of one, what a call returns
// that always returns an object it allocated (fresh), or a parameter
// every call in r passes one to. One instance of r made it, so another
// instance of r cannot reach it except through a copy published
// elsewhere, whose accesses are not own.
func (a *run) own(fn *ssa.Function, c *context, v ssa.Value) ownership {
	// A cycle through a variable's cell (s = s[1:]) or nested loads:
	// past maxOwnNesting recursive calls, not own.
	if a.ownNesting >= maxOwnNesting {
		return notOwn
	}
	a.ownNesting++
	defer func() { a.ownNesting-- }()
	for i := 0; i < 16; i++ {
		if box, ok := a.freshBox(fn, c, v); ok {
			v = box // loaded from a field that only holds new objects
			continue
		}
		if in := operand(v); in != nil {
			v = in // a part of, or another view of, that value
			continue
		}
		switch x := v.(type) {
		case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.MakeClosure:
			return ownMade
		case *ssa.Call, *ssa.Extract:
			if arg := a.passedBack(v); arg != nil {
				v = arg // one of the call's arguments, handed back
				continue
			}
			if a.freshValue(v) {
				return ownMade
			}
			return a.returnedOwn(fn, c, v)
		case *ssa.Phi:
			return a.phiOwn(fn, c, x)
		case *ssa.TypeAssert:
			if x.CommaOk {
				return notOwn
			}
			v = x.X
		case *ssa.FreeVar:
			return freeVarOwn(fn, c, x)
		case *ssa.Parameter:
			return originAt(c.origins, paramOf(fn, x))
		case *ssa.Field:
			if w, _ := a.stored(fn, x, 0); w != nil {
				v = w // a field of a struct value fn made, as above
				continue
			}
			return notOwn
		case *ssa.UnOp:
			if a.recvOf(x) != nil {
				return ownMade // taken from a channel that hands objects over (handover.go)
			}
			if x.Op != token.MUL {
				return notOwn
			}
			if ix, ok := x.X.(*ssa.IndexAddr); ok && a.freshElems(ix.X) {
				return ownMade // an element of a new slice of new objects a call returned
			}
			// A field only its object's maker sets, of an object fn
			// made, holds what fn stored there (setonce.go).
			if w, _ := a.stored(fn, x, 0); w != nil {
				v = w
				continue
			}
			// An owned field of an own object holds what its group made.
			if fa, ok := x.X.(*ssa.FieldAddr); ok && a.isOwned(fieldKey(fa.X.Type(), fa.Field)) {
				return min(a.own(fn, c, fa.X), ownGroup)
			}
			return a.capturedOwn(fn, c, x.X, i)
		default:
			return notOwn
		}
	}
	return notOwn
}

// operand is the value v is a field's or an element's address in, a
// slice of, or a conversion of; nil for any other v.
func operand(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.Slice:
		return x.X
	case *ssa.FieldAddr:
		return x.X
	case *ssa.IndexAddr:
		return x.X
	}
	return converted(v)
}

// cellOwn is the least ownership of the values stored into a variable's
// cell (notOwn if none is, or the cell has no store).
func (a *run) cellOwn(fn *ssa.Function, c *context, cell *ssa.Alloc, steps int) ownership {
	// A store of what was loaded from the cell itself, through parts
	// and calls (s = s[1:], p = next(p)): a cycle. Followed again it
	// would end at the nesting bound, not own, after trying every store
	// at every level (exponential in the stores); the answer is the
	// same at once.
	k := cellKey{cell, string(c.origins)}
	if a.cellsOpen[k] {
		return notOwn
	}
	if a.cellsOpen == nil {
		a.cellsOpen = map[cellKey]bool{}
	}
	a.cellsOpen[k] = true
	defer delete(a.cellsOpen, k)
	least, stored := ownMade, false
	for _, ref := range *cell.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		if _, self := st.Val.(*ssa.UnOp); self || steps > 8 {
			return notOwn // loads into cells: not followed further
		}
		stored = true
		least = min(least, a.own(fn, c, st.Val))
	}
	if !stored {
		return notOwn
	}
	return least
}

// cellKey is a variable's cell, in the context own asks about it in.
type cellKey struct {
	cell    *ssa.Alloc
	origins string
}

// Groups and owned fields.
//
// A handler that makes a connection and starts a reader and a writer
// goroutine for it makes one connection per request: the reader of one
// request and the reader of another never share it. A root started once
// per instance of its parent, by a go statement of the parent's own
// function outside any loop, joins its parent's group; what the parent
// passes it that the parent made is the group's own (ownGroup). Two
// accesses of one root to group-own objects are then on different
// objects, or in one goroutine; two roots of different groups are on
// different objects. Roots of one group may share.
//
// A field is owned when every store into it, in every root and context,
// puts something its storing goroutine's group made (or nil) into an
// object of the same group: then what any own object's field holds is
// that group's too, and a load from it is own (a connection's current
// writer, a request's header). The fields are found after a first walk
// and used in a second.

// joinsGroup reports whether the goroutine sp starts at instr, in fn,
// joins r's group: fn runs at most once per instance of r (onceIn), the
// statement is in no loop, and it starts one goroutine.
func (a *run) joinsGroup(r *root, fn *ssa.Function, instr ssa.Instruction, sp spawn) bool {
	return a.groups && !a.manyStarters[startKey(r.top, instr)] && !sp.multi && !inLoop(instr) && a.onceIn(r, fn, 0)
}

// startedAgain is a spawn site reached again, by root r: the goroutine
// it starts meets what r passes it, and if another root than the first
// starts it, it joins neither's group (the next walk knows it from the
// start: manyStarters).
func (a *run) startedAgain(child, r *root, fn *ssa.Function, c *context, instr ssa.Instruction) {
	if !r.assumed && !r.assumedMulti {
		child.assumedMulti = false // a starter that runs many times at once by itself
	}
	if child.parent != r {
		// Started by another root too: it joins neither's group. What
		// the go statement hands it is the statement's, whoever runs
		// it: the locks held there that it releases, as both hold them.
		a.manyStarters[startKey(r.top, instr)] = true
		child.group, child.origins, child.spanned = child, nil, nil
		child.handed = intersect(child.handed, a.handedLocks(fn, c, instr, child.fns))
		return
	}
	child.handed = intersect(child.handed, a.handedLocks(fn, c, instr, child.fns))
	child.spanned = intersect(child.spanned, a.spanLocks(fn, c, instr))
	for f, o := range a.startOrigins(child, fn, c, instr) {
		if child.origins != nil {
			meetOrigins(child.origins[f], o)
		}
	}
}

// startKey names a spawn site under a top root the same in every walk.
func startKey(top *root, instr ssa.Instruction) [2]any {
	return [2]any{top.fns[0], instr}
}

// onceIn reports whether fn runs at most once per instance of r: it is
// where r starts, or it has one caller in the whole program, which calls
// it (not in a loop, not with go) from a function that runs once per
// instance of r (a handler's closure calling serveWs).
func (a *run) onceIn(r *root, fn *ssa.Function, depth int) bool {
	for _, f := range r.fns {
		if f == fn {
			return true
		}
	}
	node := a.p.cg.Nodes[fn]
	if depth >= 4 || node == nil || len(node.In) != 1 {
		return false
	}
	e := node.In[0]
	if _, isCall := e.Site.(*ssa.Call); !isCall || inLoop(e.Site) || e.Caller.Func == fn {
		return false
	}
	return a.onceIn(r, e.Caller.Func, depth+1)
}

// maxOwnedWalks bounds the walks that look for owned fields.
const maxOwnedWalks = 4

// walkOwned walks the roots until the owned fields are known: a field
// is owned if, taking the fields thought owned as owned, every store
// into it keeps it so (then no store can be the first to break it). It
// assumes every pointer field stored owned, drops those a walk finds a
// store that breaks, and walks again, until a walk drops none. The first
// walk also finds the sites more than one root starts a goroutine at
// (manyStarters), which may join no group: a goroutine it made a member
// before it knew is walked on the wrong grounds, so that walk never
// stands as the last. If the fields do not settle in maxOwnedWalks, the
// last walk takes none as owned.
func (a *run) walkOwned(own []*ssa.Function) {
	a.groups = true
	a.manyStarters = map[[2]any]bool{}
	assumed := storedFields(own)
	for i := 0; i < maxOwnedWalks && a.budget.err == nil; i++ {
		a.owned = assumed
		a.walk()
		kept := a.ownedFields(assumed)
		if i > 0 && len(kept) == len(assumed) {
			return
		}
		assumed = kept
	}
	a.owned = nil
	a.walk()
}

// storedFields is every pointer field a store of fns writes.
func storedFields(fns []*ssa.Function) map[string]bool {
	seen := map[string]bool{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					checkStore(nil, fn, nil, st, seen, nil)
				}
			}
		}
	}
	return seen
}

// ownedFields is the fields among (every field, if nil) that every store
// the walk reached keeps owned: it puts an own object, or nil, into an
// own object.
func (a *run) ownedFields(among map[string]bool) map[string]bool {
	seen, bad := map[string]bool{}, map[string]bool{}
	a.eachStore(func(fn *ssa.Function, cs []*context, st *ssa.Store) {
		checkStore(a, fn, cs, st, seen, bad)
	})
	owned := map[string]bool{}
	for k := range seen {
		if !bad[k] && (among == nil || among[k]) {
			owned[k] = true
		}
	}
	return owned
}

// eachStore calls f for each store of each function the walk reached,
// with the function's contexts (of every root).
func (a *run) eachStore(f func(fn *ssa.Function, cs []*context, st *ssa.Store)) {
	ctxs := map[*ssa.Function][]*context{}
	var fns []*ssa.Function
	for _, r := range a.roots {
		for _, fn := range a.reached(r) {
			cs := r.ctxs[fn]
			if ctxs[fn] == nil {
				fns = append(fns, fn)
			}
			ctxs[fn] = append(ctxs[fn], cs...)
		}
	}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					f(fn, ctxs[fn], st)
				}
			}
		}
	}
}

// checkStore records the fields st writes, in seen, and in bad those it
// may put something not own into, or put into something not own.
// With a nil, it only records what st writes.
func checkStore(a *run, fn *ssa.Function, cs []*context, st *ssa.Store, seen, bad map[string]bool) {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		// A whole struct stored: each of its fields written.
		strct, isStruct := deref(st.Addr.Type()).Underlying().(*types.Struct)
		if !isStruct {
			return
		}
		for i := 0; i < strct.NumFields(); i++ {
			if pointerLike(strct.Field(i).Type()) {
				k := fieldKey(st.Addr.Type(), i)
				seen[k] = true
				if a != nil && !a.wholeStoreOwn(fn, cs, st) {
					bad[k] = true
				}
			}
		}
		return
	}
	if !pointerLike(st.Val.Type()) {
		return
	}
	k := fieldKey(fa.X.Type(), fa.Field)
	seen[k] = true
	if c, isConst := st.Val.(*ssa.Const); isConst && c.IsNil() {
		return
	}
	for _, c := range cs {
		if a.own(fn, c, fa.X) == notOwn || a.own(fn, c, st.Val) == notOwn {
			bad[k] = true
			return
		}
	}
}

// wholeStoreOwn reports whether a whole struct stored is a zero value,
// or a composite literal (whose fields' stores are checked one by one)
// stored into an own object, in every context.
func (a *run) wholeStoreOwn(fn *ssa.Function, cs []*context, st *ssa.Store) bool {
	switch v := st.Val.(type) {
	case *ssa.Const:
		return true
	case *ssa.UnOp:
		if _, lit := v.X.(*ssa.Alloc); !lit || v.Op != token.MUL {
			return false
		}
	default:
		return false
	}
	for _, c := range cs {
		if a.own(fn, c, st.Addr) == notOwn {
			return false
		}
	}
	return true
}

// maxOwnDepth bounds how deep own follows calls' results and phis;
// maxOwnNesting, how deep own calls itself in all.
const (
	maxOwnDepth   = 3
	maxOwnNesting = 32
)

// returnedOwn is how own what a call returns is, where its callees
// return, in place of v, what is own in the context the call makes (an
// owned field of an own argument: a connection's current writer).
func (a *run) returnedOwn(fn *ssa.Function, c *context, v ssa.Value) ownership {
	index := 0
	if ex, ok := v.(*ssa.Extract); ok {
		index, v = ex.Index, ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok || a.ownDepth >= maxOwnDepth {
		return notOwn
	}
	callees := a.p.callees(fn, call)
	if len(callees) == 0 {
		return notOwn
	}
	a.ownDepth++
	defer func() { a.ownDepth-- }()
	least := ownMade
	for _, callee := range callees {
		if !a.follows(callee) {
			return notOwn
		}
		origins := a.argOrigins(fn, c, call, callee)
		k := returnKey{callee, index, string(origins)}
		r, ok := a.returnOwn[k]
		if !ok {
			a.returnOwn[k] = resultOwnership{} // a recursive call: not own
			r.reads = a.recording(func() { r.own = a.resultOwn(callee, &context{origins: origins}, index) })
			// Kept only where worked out in full, not cut short by depth.
			if a.ownDepth == 1 {
				a.returnOwn[k] = r
			} else {
				delete(a.returnOwn, k)
			}
		} else {
			a.ownedReads = a.ownedReads.with(r.reads) // read to work it out
		}
		least = min(least, r.own)
	}
	return least
}

// resultOwnership is how own a function's result is, and the owned
// fields working it out read (ownedreads.go).
type resultOwnership struct {
	own   ownership
	reads fieldSet
}

type returnKey struct {
	fn      *ssa.Function
	index   int
	origins string
}

// resultOwn is the least ownership of what fn returns as result index,
// in context c; nil returned is no object.
func (a *run) resultOwn(fn *ssa.Function, c *context, index int) ownership {
	least, returned := ownMade, false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || index >= len(ret.Results) {
			continue
		}
		if k, isConst := ret.Results[index].(*ssa.Const); isConst && k.IsNil() {
			continue
		}
		returned = true
		least = min(least, a.own(fn, c, ret.Results[index]))
	}
	if !returned {
		return notOwn
	}
	return least
}

// phiOwn is the least ownership of a phi's values, nil ones aside.
func (a *run) phiOwn(fn *ssa.Function, c *context, phi *ssa.Phi) ownership {
	if a.ownDepth >= maxOwnDepth {
		return notOwn
	}
	a.ownDepth++
	defer func() { a.ownDepth-- }()
	least, any := ownMade, false
	for _, e := range phi.Edges {
		if k, isConst := e.(*ssa.Const); isConst && k.IsNil() {
			continue
		}
		if e == phi {
			continue
		}
		any = true
		least = min(least, a.own(fn, c, e))
	}
	if !any {
		return notOwn
	}
	return least
}

// unsharedPhi reports whether every value phi merges, but nil and phi
// itself, is unshared before instr (unsharedBefore), as far as
// maxOwnDepth phis deep.
func (a *run) unsharedPhi(fn *ssa.Function, c *context, phi *ssa.Phi, instr ssa.Instruction, self bool, to scope) bool {
	if a.ownDepth >= maxOwnDepth {
		return false
	}
	a.ownDepth++
	defer func() { a.ownDepth-- }()
	any := false
	for _, e := range phi.Edges {
		if k, isConst := e.(*ssa.Const); isConst && k.IsNil() || e == phi {
			continue
		}
		if !a.unsharedBefore(fn, c, e, instr, self, to) {
			return false
		}
		any = true
	}
	return any
}
