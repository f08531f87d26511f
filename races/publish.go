package races

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

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

// pointerFreeField reports whether part is the address of a field of
// v (an allocation, a parameter, a part of either) that holds no pointer
// (an ID's bytes handed to rand.Read or hex.Decode): it leads nowhere
// else in the object, so handing it out shares that field alone, not
// the object. (An access through the pointer handed out is not one to
// the field: the locations access.go pairs do not follow pointers into
// fields.) A conversion of v that is not a view of it through
// unsafe.Pointer (converted) is a number or a copy, and leads nowhere
// either.
func pointerFreeField(part ssa.Instruction) bool {
	if cv, ok := part.(*ssa.Convert); ok {
		return converted(cv) == nil
	}
	fa, ok := part.(*ssa.FieldAddr)
	return ok && pointerFree(deref(fa.Type()))
}

// pointerFree reports whether a value of type t holds no pointer at all:
// a basic type other than unsafe.Pointer (a string's bytes cannot be
// changed), or an array or struct of such.
func pointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return pointerFree(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !pointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
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
	alloc, _ := storedOnce(cell, func(v ssa.Value) bool {
		_, isAlloc := v.(*ssa.Alloc)
		return isAlloc
	}).(*ssa.Alloc)
	return alloc
}

// storedOnce is the one value, fit to be one, that a captured
// variable's cell is ever set to (besides itself: return db, err with
// named results), where no function literal capturing it sets it but
// to nil; nil if there is none or more than one.
func storedOnce(cell *ssa.Alloc, fit func(ssa.Value) bool) ssa.Value {
	var stored ssa.Value
	for _, ref := range *cell.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if load, ok := x.Val.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == cell {
				continue // the variable set to itself
			}
			if x.Addr != cell || !fit(x.Val) || stored != nil && x.Val != stored {
				return nil
			}
			stored = x.Val
		case *ssa.MakeClosure:
			fn := x.Fn.(*ssa.Function)
			for i, b := range x.Bindings {
				if b == cell && i < len(fn.FreeVars) && !onlyNilStored(fn.FreeVars[i]) {
					return nil
				}
			}
		}
	}
	return stored
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
		if ref == instr && !self || ref != instr && !a.runsBefore(v, ref, instr) {
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
		case *ssa.Extract, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.Field, *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert, *ssa.TypeAssert, *ssa.Phi:
			// A part of v (the address of a field or element, a slice
			// of it, a field of a struct loaded from v's cell), v
			// converted (seen through unsafe.Pointer too), or v as
			// one of the values a phi merges, goes as v does: storing it
			// into v's own object (c.wb.w = &c.wbuf) publishes nothing.
			if !pointerFreeField(x) && a.publishedBefore(x.(ssa.Value), instr, self, to, seen, depth+1) {
				return true
			}
		case *ssa.Call:
			if a.callPublishedBefore(x, v, instr, self, to, seen, depth) {
				return true
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
			if a.closurePublishes(x, v, instr, self, to, seen, depth) {
				return true
			}
		case *ssa.Defer:
			if deferPublishes(x, v, instr) {
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

// closurePublishes is publishedBefore for mc, a function literal (or
// method value) holding v: it goes as v does (stored into another
// object, started as a goroutine); where its body lets v go, v goes once
// a call before instr can run it (mayRunBefore): go-redis's newConn
// stores c.Process into the Conn it makes and runs nothing that calls it
// before it returns. Handed only to code the analysis does not see
// (unseenOnly), a literal that lets v go nowhere publishes nothing.
func (a *run) closurePublishes(mc *ssa.MakeClosure, v ssa.Value, instr ssa.Instruction, self bool, to scope, seen map[ssa.Value]bool, depth int) bool {
	kind := a.closureKind(mc, v)
	if kind == escNone && a.unseenOnly(mc, instr, self) {
		return false
	}
	return a.publishedBefore(mc, instr, self, to, seen, depth+1) || kind != escNone && a.mayRunBefore(mc, instr, self)
}

// unseenOnly reports whether mc, a function literal or method value, is
// used before instr (or at it, with self) only as an argument of calls of
// a dependency that are neither the standard library's (whose callbacks
// run before it returns: callbacks) nor a start of goroutines the
// analysis follows (time.AfterFunc, a handler's registration): nats.go's
// Subscribe handed a connection's method value, which it runs later in
// goroutines of its own (callbacks). What mc holds is then reached only
// by runs of mc in code the analysis does not see, and, where mc lets it
// go no further (closureKind), is not published to any goroutine it
// follows by being handed there.
func (a *run) unseenOnly(mc *ssa.MakeClosure, instr ssa.Instruction, self bool) bool {
	handed, ok := a.handedUnseen(mc, mc, instr, self, 0)
	return ok && handed
}

// handedUnseen is unseenOnly for v, mc or mc converted to a named
// function type (nats.go's MsgHandler): whether it is handed to such a
// call, and whether it is used no other way.
func (a *run) handedUnseen(mc *ssa.MakeClosure, v ssa.Value, instr ssa.Instruction, self bool, depth int) (handed, ok bool) {
	refs := v.Referrers()
	if refs == nil || depth > 2 {
		return false, false
	}
	for _, ref := range *refs {
		if ref == instr && !self || ref != instr && !a.runsBefore(mc, ref, instr) {
			continue
		}
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.ChangeType:
			h, ok := a.handedUnseen(mc, x, instr, self, depth+1)
			if !ok {
				return false, false
			}
			handed = handed || h
		case *ssa.Call:
			dep := x.Common().StaticCallee()
			if dep == nil || dep.Blocks != nil || x.Common().IsInvoke() || stdlib(dep) || x.Common().Value == v {
				return false, false
			}
			if _, starts := a.spawnAt(x.Parent(), x); starts {
				return false, false
			}
			handed = true
		default:
			return false, false
		}
	}
	return handed, true
}

// deferPublishes reports whether d, a defer statement using v, can
// publish v before instr. A deferred unlock keeps nothing; a deferred
// call runs once its function returns, after every instruction of it but
// a return's (defer cl.Stop() while cl is still being set up).
func deferPublishes(d *ssa.Defer, v ssa.Value, instr ssa.Instruction) bool {
	if syncCommon(&d.Call) || !atExit(instr, d) {
		return false
	}
	return d.Call.Value != v || d.Call.IsInvoke() || slices.Contains(d.Call.Args, v)
}

// atExit reports whether instr can run after d's deferred call: it is
// in another function, or it is a return (whose results the caller gets
// once the deferred calls have run).
func atExit(instr ssa.Instruction, d *ssa.Defer) bool {
	if instr == nil || instr.Parent() != d.Parent() {
		return true
	}
	_, ret := instr.(*ssa.Return)
	return ret
}

// mayRunBefore reports whether the function mc makes can run before
// instr (or at it, with self): a call in mc's function before instr can
// reach it, directly, through its callees and the callbacks it runs, or
// through the goroutines it starts (the call graph says which function
// values each call can run). True where instr is in another function.
func (a *run) mayRunBefore(mc *ssa.MakeClosure, instr ssa.Instruction, self bool) bool {
	f, ok := mc.Fn.(*ssa.Function)
	if !ok || instr == nil || instr.Parent() != mc.Parent() {
		return true
	}
	// The call graph names the method a method value's call runs, not
	// the wrapper that binds it.
	runs := []*ssa.Function{f}
	if strings.HasPrefix(f.Synthetic, "bound method wrapper") {
		for _, cs := range a.callsOf(f) {
			runs = append(runs, cs.callees...)
		}
	}
	for _, cs := range a.callsOf(mc.Parent()) {
		if cs.instr == instr && !self || cs.instr != instr && !reaches(cs.instr, instr) {
			continue
		}
		if _, deferred := cs.instr.(*ssa.Defer); deferred {
			continue // runs once the function returns, after instr
		}
		for _, fns := range [][]*ssa.Function{cs.callees, cs.callbacks, cs.sp.fns} {
			for _, g := range fns {
				reached := a.reachable(g)
				if slices.ContainsFunc(runs, func(r *ssa.Function) bool { return reached[r] }) {
					return true
				}
			}
		}
	}
	return false
}

// callPublishedBefore is publishedBefore for call, a use of v: how the
// callee lets v go, and then as the results that may hold it go, and as
// the arguments it is stored into go.
func (a *run) callPublishedBefore(call *ssa.Call, v ssa.Value, instr ssa.Instruction, self bool, to scope, seen map[ssa.Value]bool, depth int) bool {
	e := a.argEscape(call, v)
	if e.kind == escAny || e.kind == escSpawned && to == toAnyone {
		return true
	}
	for _, r := range resultsHolding(call, e.results) {
		if a.publishedBefore(r, instr, self, to, seen, depth+1) {
			return true
		}
	}
	for _, t := range argsAt(call, e.into) {
		// Stored into what another argument points into: v goes as that
		// object goes (vlog.init(db) with &db.vlog).
		if b := newBase(t); b != nil && seen[b] {
			continue
		}
		root := a.madeRoot(t)
		if root == nil || a.publishedBefore(root, instr, self, to, seen, depth+1) {
			return true
		}
	}
	return false
}

// maxPublishDepth bounds how far publishedBefore follows what holds v.
const maxPublishDepth = 6

// runsBefore reports whether ref, a use of v, can run before instr in
// one call of their function (for an allocation, on the same object).
func (a *run) runsBefore(v ssa.Value, ref, instr ssa.Instruction) bool {
	if d := a.renewedAt(v); d != nil {
		return reachesSame(ref, instr, d) // freshdef.go
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
	switch x := partOf(addr).(type) {
	case *ssa.Call, *ssa.Extract:
		if a.freshValue(x) {
			return x
		}
	}
	return nil
}

// newBase is the allocation or parameter addr is a field or element
// of (through fields and array elements, and a captured variable's
// cell to what it holds), nil if there is none.
func newBase(addr ssa.Value) ssa.Value {
	switch x := partOf(addr).(type) {
	case *ssa.Alloc, *ssa.Parameter:
		return x
	case *ssa.UnOp:
		// A captured variable, loaded in the function that declares it:
		// the one allocation it holds (cellAlloc).
		if alloc := cellAlloc(x); alloc != nil {
			return alloc
		}
		// A captured parameter, loaded from its cell: the parameter.
		if cell, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL && readOnlyCaptured(cell) {
			if p := storedParam(cell); p != nil {
				return p
			}
		}
	}
	return nil
}

// partOf is the value addr is the address of a field or element of,
// through fields and array elements; addr itself if it is neither.
func partOf(addr ssa.Value) ssa.Value {
	for {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		default:
			return addr
		}
	}
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
	case *ssa.MapUpdate:
		return x.Key == v || x.Value == v // putting into the map v keeps nothing
	case *ssa.Lookup, *ssa.Range:
		return false // reading v, or looking v up, keeps nothing
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
		if !a.runsBefore(cell, ref, instr) && ref != instr {
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
	h := everyReturn(fn, i, func(v ssa.Value, ret *ssa.Return) bool { return a.handedIn(v, ret, to, 0) })
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
	case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeChan:
		return !a.published(x, ret, false, to)
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeInterface:
		return a.handedIn(x.X, ret, to, steps+1)
	case *ssa.ChangeType:
		return a.handedIn(x.X, ret, to, steps+1)
	case *ssa.Slice:
		// A new array, sliced (make with a constant length).
		_, isAlloc := x.X.(*ssa.Alloc)
		return isAlloc && a.handedIn(x.X, ret, to, steps+1)
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
		if arg := a.passedBack(v); arg != nil {
			// One of the call's arguments, handed back (passback.go).
			return a.handedIn(arg, ret, to, steps+1) && !a.published(v, ret, false, to)
		}
		return (poolGet(v) || a.handedOver(v, to)) && !a.published(v, ret, false, to)
	case *ssa.UnOp:
		return a.handOverRecv(x) && !a.published(x, ret, false, to)
	}
	return false
}

// syncCall reports whether call is a function or method of sync or
// sync/atomic: it uses the address it is given and keeps nothing.
func syncCall(call *ssa.Call) bool {
	return syncCommon(call.Common())
}

// syncCommon is syncCall for a call's common part (a call's, a defer's:
// defer h.mu.RUnlock()).
func syncCommon(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee != nil && callee.Pkg == nil && callee.Origin() != nil {
		callee = callee.Origin() // a generic type's method: atomic.Pointer[T].Store
	}
	if callee == nil || callee.Pkg == nil {
		return false
	}
	path := callee.Pkg.Pkg.Path()
	return path == "sync" || path == "sync/atomic"
}
