package races

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Publication: when an object a function made becomes reachable from
// elsewhere. Until then no other goroutine can touch it, and its
// accesses cannot race (access.go leaves them out; ownership.go carries
// the same into callees, freshAt).

// unpublished reports whether addr is a field (or a field of a field) of
// an object its function allocated and has not yet made reachable to
// anything else before instr.
func (a *run) unpublished(addr ssa.Value, instr ssa.Instruction) bool {
	if cell, ok := addr.(*ssa.Alloc); ok {
		if capturedCell(cell) != nil {
			return !a.cellShared(cell, instr, toAnyone)
		}
		return a.unpublishedAt(cell, instr)
	}
	if _, ok := addr.(*ssa.FieldAddr); !ok {
		return false
	}
	alloc, ok := objectOf(addr).(*ssa.Alloc)
	if !ok {
		return false
	}
	return a.unpublishedAt(alloc, instr)
}

// objectOf is the object v, an address, is in: through the addresses
// of fields (of fields) to the struct pointer, and from a load of a
// captured variable's cell to the one allocation the variable holds
// (cellAlloc).
func objectOf(v ssa.Value) ssa.Value {
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		v = fa.X
	}
	if alloc := cellAlloc(v); alloc != nil {
		return alloc
	}
	return v
}

// cellAlloc is the allocation v, a load from a captured variable's cell
// in the function that declares it, gives: the one allocation the
// variable is ever set to (function literals may set it to nil, and a
// return with named results sets it to itself). Nil if there is no such
// allocation.
func cellAlloc(v ssa.Value) *ssa.Alloc {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok || capturedCell(cell) == nil {
		return nil
	}
	var alloc *ssa.Alloc
	for _, ref := range *cell.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if load, ok := x.Val.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == cell {
				continue // the variable set to itself: return db, err with named results
			}
			a, ok := x.Val.(*ssa.Alloc)
			if x.Addr != cell || !ok || alloc != nil && a != alloc {
				return nil
			}
			alloc = a
		case *ssa.MakeClosure:
			fn := x.Fn.(*ssa.Function)
			for i, b := range x.Bindings {
				if b == cell && i < len(fn.FreeVars) && !onlyNilStored(fn.FreeVars[i]) {
					return nil
				}
			}
		}
	}
	return alloc
}

// onlyNilStored reports whether a function literal stores nothing but
// nil into its free variable fv, and lets its address go nowhere.
func onlyNilStored(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		switch x := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			if c, ok := x.Val.(*ssa.Const); x.Addr != fv || !ok || !c.IsNil() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// unpublishedAt reports whether nothing has made alloc reachable from
// elsewhere before instr (or by instr itself).
func (a *run) unpublishedAt(alloc *ssa.Alloc, instr ssa.Instruction) bool {
	return !a.published(alloc, instr, true, toAnyone)
}

// scope is who a publication reaches: any other goroutine, or one the
// maker does not start itself.
type scope uint8

const (
	// toAnyone: any other goroutine, the ones the maker starts included.
	toAnyone scope = iota
	// beyondSpawned: a goroutine other than the maker and those it
	// starts with the object (a go statement whose function keeps it:
	// stores it nowhere that outlives it, hands it to nothing else).
	beyondSpawned
)

// published is publishedBefore from the start, worked out once for each
// value, instruction and self: it depends on the program alone.
func (a *run) published(v ssa.Value, instr ssa.Instruction, self bool, to scope) bool {
	k := pubKey{v, instr, self, to}
	if p, ok := a.pubMemo[k]; ok {
		return p
	}
	p := a.publishedBefore(v, instr, self, to, map[ssa.Value]bool{}, 0)
	a.pubMemo[k] = p
	return p
}

type pubKey struct {
	v     ssa.Value
	instr ssa.Instruction
	self  bool
	to    scope
}

// publishedBefore reports whether a use of v that runs before instr (or
// is instr, with self) makes it reachable from elsewhere. Storing v into
// an object its function made is no publication until that object is
// published, and neither is passing it to a callee that only returns
// it (or something holding it), until what the call returns is: a
// constructor that builds its parts with helpers and stores them into
// one another publishes them when it hands out the whole. seen holds the
// values being looked at: a cycle (a part holding its whole) adds
// nothing.
func (a *run) publishedBefore(v ssa.Value, instr ssa.Instruction, self bool, to scope, seen map[ssa.Value]bool, depth int) bool {
	if seen[v] {
		return false
	}
	if depth > maxPublishDepth {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if ref == instr && !self || ref != instr && !runsBefore(v, ref, instr) {
			continue
		}
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Val != v {
				continue
			}
			if seen[newBase(x.Addr)] {
				continue // into v's own object, or one holding v
			}
			if w := a.madeRoot(x.Addr); w != nil && w != v {
				if a.publishedBefore(w, instr, self, to, seen, depth+1) {
					return true
				}
				continue
			}
			return true
		case *ssa.Extract, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.MakeInterface, *ssa.ChangeType, *ssa.TypeAssert:
			// A part of v (the address of a field or element), or v
			// converted, goes as v does: storing it into v's own
			// object (c.wb.w = &c.wbuf) publishes nothing.
			if a.publishedBefore(x.(ssa.Value), instr, self, to, seen, depth+1) {
				return true
			}
		case *ssa.Call:
			e := a.argEscape(x, v)
			if e.kind == escAny || e.kind == escSpawned && to == toAnyone {
				return true
			}
			for _, r := range resultsHolding(x, e.results) {
				if a.publishedBefore(r, instr, self, to, seen, depth+1) {
					return true
				}
			}
			for _, t := range argsAt(x, e.into) {
				// Stored into what another argument points into: v goes
				// as that object goes (vlog.init(db) with &db.vlog).
				if b := newBase(t); b != nil && seen[b] {
					continue
				}
				root := a.madeRoot(t)
				if root == nil || a.publishedBefore(root, instr, self, to, seen, depth+1) {
					return true
				}
			}
		case *ssa.UnOp:
			// What is loaded from a captured variable's cell is what
			// was stored there: v, when v got here through the cell.
			if x.Op == token.MUL && capturedCell(v) != nil {
				if a.publishedBefore(x, instr, self, to, seen, depth+1) {
					return true
				}
			}
		case *ssa.Go:
			if to == toAnyone || !a.spawnKeeps(x, v) {
				return true
			}
		case *ssa.MakeClosure:
			// A function literal (or method value) holding v goes as
			// v does, when its body keeps v: run here or deferred,
			// stored into v's own object (c.cmdable = c.Process),
			// started as a goroutine (beyondSpawned).
			if a.closureKind(x, v) != escNone || a.publishedBefore(x, instr, self, to, seen, depth+1) {
				return true
			}
		case *ssa.Defer:
			if x.Call.Value != v || x.Call.IsInvoke() || slices.Contains(x.Call.Args, v) {
				return true
			}
		default:
			if a.publishes(v, ref) {
				return true
			}
		}
	}
	return false
}

// maxPublishDepth bounds how far publishedBefore follows what holds v.
const maxPublishDepth = 6

// runsBefore reports whether ref, a use of v, can run before instr in
// one call of their function (for an allocation, on the same object).
func runsBefore(v ssa.Value, ref, instr ssa.Instruction) bool {
	if alloc, ok := v.(*ssa.Alloc); ok {
		return reachesSame(ref, instr, alloc)
	}
	return reaches(ref, instr)
}

// newRoot is the allocation addr is a field or element of (through
// fields and array elements), nil if there is none.
func newRoot(addr ssa.Value) ssa.Value {
	if alloc, ok := newBase(addr).(*ssa.Alloc); ok {
		return alloc
	}
	return nil
}

// madeRoot is newRoot, where the fresh result of a call (a constructor's,
// or a dependency's whose source shows it allocates what it returns)
// counts as an allocation: a function literal stored into the skiplist
// skl.NewSkiplist just made goes where that skiplist goes.
func (a *run) madeRoot(addr ssa.Value) ssa.Value {
	if w := newRoot(addr); w != nil {
		return w
	}
	for {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.Call, *ssa.Extract:
			if a.freshValue(x) {
				return x
			}
			return nil
		default:
			return nil
		}
	}
}

// newBase is the allocation or parameter addr is a field or element
// of (through fields and array elements, and a captured variable's
// cell to what it holds), nil if there is none.
func newBase(addr ssa.Value) ssa.Value {
	for {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.Alloc, *ssa.Parameter:
			return x
		case *ssa.UnOp:
			// A captured variable, loaded in the function that declares
			// it: the one allocation it holds (cellAlloc).
			if alloc := cellAlloc(x); alloc != nil {
				return alloc
			}
			return nil
		default:
			return nil
		}
	}
}

// reachesSame reports whether, in one call of a function, to can run
// after from with the same allocation alloc made (an allocation, or a
// call that returns a fresh object): some path leads from from to to
// without running alloc again (an allocation in a loop makes
// a new object each time round: what the last one published is not the
// object a later access touches).
func reachesSame(from, to, alloc ssa.Instruction) bool {
	ab, ai := alloc.Block(), index(alloc)
	if from.Block() == to.Block() && index(from) < index(to) && !(ab == from.Block() && index(from) < ai && ai < index(to)) {
		return true
	}
	if ab == from.Block() && index(from) < ai {
		return false // every way on from from runs alloc first
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Block().Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b == to.Block() && (b != ab || index(to) < ai) {
			return true
		}
		if b == ab {
			continue // alloc runs again on this way
		}
		work = append(work, b.Succs...)
	}
	return false
}

// publishes reports whether ref, a use of v (an allocation or the
// address of a field in one), can make it reachable from elsewhere:
// storing it, capturing it, sending it, starting a goroutine with it,
// converting it to an interface, returning it, or passing it to a callee
// that does one of those.
func (a *run) publishes(v ssa.Value, ref ssa.Instruction) bool {
	switch x := ref.(type) {
	case *ssa.FieldAddr:
		return a.escapes(x)
	case *ssa.IndexAddr:
		return a.escapes(x)
	case *ssa.UnOp:
		return x.Op != token.MUL
	case *ssa.Store:
		return x.Val == v
	case *ssa.DebugRef, *ssa.BinOp:
		return false // a comparison (fn != nil) keeps nothing
	case *ssa.Call:
		return a.callPublishes(x, v)
	}
	return true
}

// escapes reports whether any use of v publishes it.
func (a *run) escapes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if a.publishes(v, ref) {
			return true
		}
	}
	return false
}

// callPublishes reports whether call can publish v, one of its
// arguments (argKind), even if only by returning it.
func (a *run) callPublishes(call *ssa.Call, v ssa.Value) bool {
	return a.argKind(call, v) != escNone
}

// escapeKind is how a function lets a value go: not at all, only by
// returning it (or something holding it), by handing it to goroutines
// it starts that keep it (and perhaps returning it), or in any other way.
type escapeKind uint8

const (
	escNone escapeKind = iota
	escReturn
	// escSpawned: a constructor that starts its workers on what it
	// builds (badger's newLevelsController opening tables in goroutines
	// it waits for): another goroutine has it, but one the caller's
	// instance started.
	escSpawned
	escAny
)

// argKind is how call lets v, one of its arguments, go: a sync or
// sync/atomic call keeps nothing; a static callee as its parameter
// (paramKind), a call through an interface or a function value as the
// worst of the functions the call graph says it can run; a call of code
// the analysis has no body for, anyhow.
func (a *run) argKind(call *ssa.Call, v ssa.Value) escapeKind {
	return a.argEscape(call, v).kind
}

// argEscape is argKind, which of the call's results may hold v, and
// which of its arguments' objects v may be stored into (a bit for each
// result or parameter, all of them past 64).
func (a *run) argEscape(call *ssa.Call, v ssa.Value) paramEscape {
	if syncCall(call) {
		return paramEscape{}
	}
	c := call.Common()
	if !slices.Contains(c.Args, v) && !(c.IsInvoke() && c.Value == v) {
		return paramEscape{} // v is the function called: running it hands it nothing
	}
	callees := []*ssa.Function{c.StaticCallee()}
	if callees[0] == nil {
		// A call through an interface or a function value (a
		// functional option, opt(d)): how every function the call
		// graph says it can run lets v go.
		callees = a.p.callees(call.Parent(), call)
	}
	anyhow := paramEscape{escAny, allResults, 0}
	if len(callees) == 0 {
		return anyhow
	}
	var out paramEscape
	for _, callee := range callees {
		args := passed(call, callee)
		if callee == nil || callee.Blocks == nil || !a.follows(callee) || args == nil {
			return anyhow
		}
		for i, arg := range args {
			if arg == v {
				e := a.paramEscape(callee.Params[i])
				out = paramEscape{max(out.kind, e.kind), out.results | e.results, out.into | e.into}
			}
		}
	}
	return out
}

// argsAt is the arguments of call (its receiver first, for a call
// through an interface) at the parameters into says.
func argsAt(call *ssa.Call, into uint64) []ssa.Value {
	if into == 0 {
		return nil
	}
	c := call.Common()
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	var out []ssa.Value
	for i, arg := range args {
		if into&resultBit(i) != 0 {
			out = append(out, arg)
		}
	}
	return out
}

// allResults says every result of a call may hold a value.
const allResults = ^uint64(0)

// resultsHolding is what call gives that may hold a value in the results
// results says: the call itself when it has one result, else its
// extracts of those results (a constructor's error does not hold what
// it built).
func resultsHolding(call *ssa.Call, results uint64) []ssa.Value {
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		if results == 0 {
			return nil
		}
		return []ssa.Value{call}
	}
	var out []ssa.Value
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && (ex.Index >= 64 || results&(1<<ex.Index) != 0) {
			out = append(out, ex)
		}
	}
	return out
}

// paramEscape is how a function lets a parameter go, which of its
// results may hold it, and into which of its other parameters' objects
// it may be stored.
type paramEscape struct {
	kind    escapeKind
	results uint64
	into    uint64
}

// paramKind is how a callee lets a parameter go, worked out once; a
// parameter whose answer is being worked out (recursion) goes anyhow.
func (a *run) paramKind(p *ssa.Parameter) escapeKind {
	return a.paramEscape(p).kind
}

// paramEscape is paramKind, and which results may hold p, worked out
// once.
func (a *run) paramEscape(p *ssa.Parameter) paramEscape {
	if e, ok := a.escaping[p]; ok {
		return e
	}
	a.escaping[p] = paramEscape{escAny, allResults, 0}
	w := &escWalk{seen: map[ssa.Value]bool{}}
	e := paramEscape{kind: a.kindIn(p, p, 0, w), results: w.results, into: w.into}
	a.escaping[p] = e
	return e
}

// escWalk is what kindIn has seen, and the results through which what
// it follows is returned.
type escWalk struct {
	seen    map[ssa.Value]bool
	results uint64
	into    uint64 // the parameters whose objects it is stored into
}

// kindOf is how v's function lets v go: returning it, storing it into an
// object the function made (as that object goes), passing it on.
func (a *run) kindOf(v ssa.Value, depth int) escapeKind {
	w := &escWalk{seen: map[ssa.Value]bool{}}
	k := a.kindIn(v, v, depth, w)
	if w.into != 0 {
		return escAny // stored into a parameter's object: only a parameter's summary follows that
	}
	return k
}

// kindIn is kindOf for v, which is of or a part of it (a field's
// address, of converted, a literal capturing it): storing v into of's
// own object lets nothing go.
func (a *run) kindIn(of, v ssa.Value, depth int, w *escWalk) escapeKind {
	if w.seen[v] {
		return escNone // a cycle (a part holding its whole) adds nothing
	}
	if depth > maxPublishDepth {
		w.results = allResults
		return escAny
	}
	w.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return escNone
	}
	k := escNone
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.Return:
			k = max(k, escReturn)
			for i, r := range x.Results {
				if r == v {
					w.results |= resultBit(i)
				}
			}
		case *ssa.Store:
			if x.Val != v || newBase(x.Addr) == of {
				continue
			}
			if p, ok := newBase(x.Addr).(*ssa.Parameter); ok {
				if !w.storedInto(p) {
					k = escAny
				}
				continue
			}
			if root := a.madeRoot(x.Addr); root != nil && root != v {
				k = max(k, a.kindIn(root, root, depth+1, w))
			} else {
				k = escAny
			}
		case *ssa.Extract, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.MakeInterface, *ssa.ChangeType, *ssa.TypeAssert:
			k = max(k, a.kindIn(of, x.(ssa.Value), depth+1, w))
		case *ssa.MakeClosure:
			k = max(k, a.closureKind(x, v), a.kindIn(of, x, depth+1, w))
		case *ssa.Defer:
			if x.Call.Value != v || x.Call.IsInvoke() || slices.Contains(x.Call.Args, v) {
				k = escAny
			}
		case *ssa.Call:
			e := a.argEscape(x, v)
			k = max(k, e.kind)
			if e.kind == escAny {
				break
			}
			for _, r := range resultsHolding(x, e.results) {
				k = max(k, a.kindIn(r, r, depth+1, w))
			}
			for _, t := range argsAt(x, e.into) {
				switch b := newBase(t); {
				case b == of || b != nil && w.seen[b]:
				case isParameter(b):
					if !w.storedInto(b.(*ssa.Parameter)) {
						k = escAny
					}
				default:
					if root := a.madeRoot(t); root != nil {
						k = max(k, a.kindIn(root, root, depth+1, w))
					} else {
						k = escAny
					}
				}
			}
		case *ssa.Go:
			if a.spawnKeeps(x, v) {
				k = max(k, escSpawned)
			} else {
				k = escAny
			}
		default:
			if a.publishes(v, ref) {
				k = escAny
			}
		}
		if k == escAny {
			w.results = allResults
			return k
		}
	}
	return k
}

// isParameter reports whether v is a function's parameter.
func isParameter(v ssa.Value) bool {
	_, ok := v.(*ssa.Parameter)
	return ok
}

// storedInto records that the value walked is stored into what p, a
// parameter of its function, points into; false if p is not one of its
// function's parameters.
func (w *escWalk) storedInto(p *ssa.Parameter) bool {
	i := paramOf(p.Parent(), p)
	if i < 0 {
		return false
	}
	w.into |= resultBit(i)
	return true
}

// resultBit is result i's bit in a set of results (or parameters).
func resultBit(i int) uint64 {
	if i >= 64 {
		return allResults
	}
	return 1 << i
}

// spawnKeeps reports whether the goroutine g starts keeps v, one of its
// arguments, to itself: its function is known and lets v go no further
// than returning it.
func (a *run) spawnKeeps(g *ssa.Go, v ssa.Value) bool {
	c := g.Common()
	callee := c.StaticCallee()
	if callee == nil || callee.Blocks == nil || c.IsInvoke() || len(c.Args) != len(callee.Params) {
		return false
	}
	if _, closure := v.(*ssa.MakeClosure); c.Value == v && !closure {
		return false
	}
	for i, arg := range c.Args {
		if arg == v && a.paramKind(callee.Params[i]) == escAny {
			return false
		}
	}
	return true
}

// closureKind is how the body of mc, a function literal or method
// value, lets v go when mc captures it.
func (a *run) closureKind(mc *ssa.MakeClosure, v ssa.Value) escapeKind {
	fn := mc.Fn.(*ssa.Function)
	k := escNone
	for i, b := range mc.Bindings {
		if b == v && i < len(fn.FreeVars) {
			k = max(k, a.freeVarKind(fn.FreeVars[i]))
		}
	}
	if k == escReturn || k == escSpawned {
		return escAny // what calls of it return is not followed
	}
	return k
}

// cellShared reports whether a captured variable's cell can be reached,
// by instr, by another goroutine (to: toAnyone), or one but those the
// instance of its function that declared it starts (beyondSpawned): a
// function literal capturing it was made that lets it (not what it
// holds) go further, or its address was.
func (a *run) cellShared(cell *ssa.Alloc, instr ssa.Instruction, to scope) bool {
	k := pubKey{cell, instr, true, to}
	if p, ok := a.cellMemo[k]; ok {
		return p
	}
	p := a.cellSharedBefore(cell, instr, to)
	a.cellMemo[k] = p
	return p
}

// cellSharedBefore is cellShared, worked out.
func (a *run) cellSharedBefore(cell *ssa.Alloc, instr ssa.Instruction, to scope) bool {
	seen := map[ssa.Value]bool{cell: true}
	for _, ref := range *cell.Referrers() {
		if !runsBefore(cell, ref, instr) && ref != instr {
			continue
		}
		switch x := ref.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return true
			}
		case *ssa.Store:
			if x.Val == cell {
				return true
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			fn := x.Fn.(*ssa.Function)
			for i, b := range x.Bindings {
				if b != cell || i >= len(fn.FreeVars) {
					continue
				}
				if k := a.kindOf(fn.FreeVars[i], 0); k == escAny || k == escSpawned && to == toAnyone {
					return true
				}
			}
			if a.publishedBefore(x, instr, true, to, seen, 1) {
				return true
			}
		default:
			if a.publishes(cell, ref) {
				return true
			}
		}
	}
	return false
}

// freeVarKind is how a function literal lets a captured value go: the
// free variable itself, and what it loads from it when it is a
// variable's cell.
func (a *run) freeVarKind(fv *ssa.FreeVar) escapeKind {
	k := a.kindOf(fv, 0)
	for _, ref := range *fv.Referrers() {
		if l, ok := ref.(*ssa.UnOp); ok && l.Op == token.MUL {
			k = max(k, a.kindOf(l, 1))
		}
	}
	return k
}

// handedOver reports whether v, a call's result, is an object the call
// made and returned having published it to nobody (to: toAnyone) or to
// none but goroutines it started (beyondSpawned): a constructor's new
// object, which only the caller holds once it returns.
func (a *run) handedOver(v ssa.Value, to scope) bool {
	return a.everyCallee(v, func(callee *ssa.Function, i int) bool { return a.handsOver(callee, i, to) })
}

// handsOver reports whether each of fn's returns gives as result i an
// object it made and published to nobody (or none but goroutines it
// started) before, or nil; worked out once.
func (a *run) handsOver(fn *ssa.Function, i int, to scope) bool {
	k := handKey{resultKey{fn, i}, to}
	if h, ok := a.handMemo[k]; ok {
		return h
	}
	a.handMemo[k] = false // a recursive call is not
	h, returned := true, false
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			returned = true
			h = h && a.handedIn(ret.Results[i], ret, to, 0)
		}
	}
	h = h && returned
	a.handMemo[k] = h
	return h
}

type handKey struct {
	r  resultKey
	to scope
}

// handedIn reports whether v, returned by ret, is an object its function
// made and has not published (to) before ret, or nil.
func (a *run) handedIn(v ssa.Value, ret *ssa.Return, to scope, steps int) bool {
	if steps > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		return !a.published(x, ret, false, to)
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeInterface:
		return a.handedIn(x.X, ret, to, steps+1)
	case *ssa.ChangeType:
		return a.handedIn(x.X, ret, to, steps+1)
	case *ssa.TypeAssert:
		return !x.CommaOk && a.handedIn(x.X, ret, to, steps+1) && !a.published(x, ret, false, to)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !a.handedIn(e, ret, to, steps+1) {
				return false
			}
		}
		return len(x.Edges) > 0 && !a.published(x, ret, false, to)
	case *ssa.Call, *ssa.Extract:
		return (poolGet(v) || a.handedOver(v, to)) && !a.published(v, ret, false, to)
	}
	return false
}

// syncCall reports whether call is a function or method of sync or
// sync/atomic: it uses the address it is given and keeps nothing.
func syncCall(call *ssa.Call) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil {
		return false
	}
	path := callee.Pkg.Pkg.Path()
	return path == "sync" || path == "sync/atomic"
}
