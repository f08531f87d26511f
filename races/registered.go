package races

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Registration after set-up.
//
// A goroutine that takes an object from a container (a map or slice held
// in a field, or the field itself) while it holds a lock has the object
// only once something put it there. Where every put into that container
// holds the same lock, and nothing that runs before an access on the
// object's making path (from the function whose call made the object down
// to the access) can put it there, or let it go anywhere else, the
// object was put there after the access: the put's unlock comes before
// the taker's lock, so the access happens before whatever the taker does
// with the object. mochi-mqtt's listeners are set up by their Init and
// only then added, under the table's lock, to the server's listener
// table, which Close ranges over under the same lock; pulsar-client-go's
// partition consumer is built and only then registered as its
// connection's handler.

// registeredAfter reports whether x happens before y so: y's object is
// taken, under a lock, from a container every put into which holds that
// lock, and x's object is put nowhere it could be taken from, and let
// go nowhere, before x.
func (a *run) registeredAfter(x, y *site) bool {
	loc, held := a.takenFromOnce(y)
	if loc == "" || len(held) == 0 || !a.lockedPuts(loc, held) {
		return false
	}
	m := a.madeChainOnce(*x)
	if m.frames == nil {
		return false
	}
	for k, f := range m.frames {
		var from ssa.Instruction
		if k == 0 {
			from, _ = m.made.(ssa.Instruction)
		}
		if !a.keptBeforeOnce(f, m.held[k], from, loc) {
			return false
		}
	}
	return true
}

// taken is what takenFrom found for a site, kept on the site (tk).
type taken struct {
	loc  string
	held lockSet
}

// takenFromOnce is takenFrom, worked out once per site.
func (a *run) takenFromOnce(y *site) (string, lockSet) {
	if y.tk == nil {
		loc, held := a.takenFrom(*y)
		y.tk = &taken{loc, held}
	}
	return y.tk.loc, y.tk.held
}

// takenFrom is the container y's object was taken from, followed up y's
// contexts through the parameters it is passed in (every call entering a
// context passing the same value) and the fields that only ever hold what
// was new (freshLoad), with the locks held where it was taken: "" if the
// object was not taken from a container so.
func (a *run) takenFrom(y site) (string, lockSet) {
	if y.ctx == nil || y.ctx.fn != y.fn {
		return "", nil
	}
	v := objectOf(y.acc.base)
	seen := map[*context]bool{}
	for c := y.ctx; c != nil && !seen[c]; c = c.from {
		seen[c] = true
		for {
			box, ok := a.freshLoad(v)
			if !ok {
				break
			}
			v = objectOf(box)
		}
		j := paramOf(c.fn, v)
		if j < 0 {
			return a.takenAt(c.fn, c.entry, v, 0)
		}
		if c.from == nil {
			return "", nil
		}
		vals, ok := a.enteringArgs(c, j)
		if !ok || len(vals) == 0 {
			return "", nil
		}
		for _, w := range vals[1:] {
			if w != vals[0] {
				return "", nil // the calls pass different objects
			}
		}
		v = vals[0]
	}
	return "", nil
}

// takenAt is the container v, a value of fn (entered holding entry), is
// taken from (a map's lookup or range, a slice's or array's element, a
// field's load, or a call's result that its callees take so: pulsar's
// consumerHandler looking the handler up under its connection's lock),
// and the locks held there; "" if v is none of those.
func (a *run) takenAt(fn *ssa.Function, entry lockSet, v ssa.Value, depth int) (string, lockSet) {
	for i := 0; i < 4; i++ {
		if c := converted(v); c != nil {
			v = c
			continue
		}
		if ta := assertedFrom(v); ta != nil {
			v = ta.X
			continue
		}
		break
	}
	var coll ssa.Value
	var at ssa.Instruction
	switch x := v.(type) {
	case *ssa.Call:
		return a.takenByCall(fn, x, 0, depth)
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			return a.takenByCall(fn, call, x.Index, depth)
		}
		switch t := x.Tuple.(type) {
		case *ssa.Next:
			if rng, ok := t.Iter.(*ssa.Range); ok && x.Index == 2 {
				coll, at = rng.X, t
			}
		case *ssa.Lookup:
			if x.Index == 0 {
				coll, at = t.X, t
			}
		}
	case *ssa.Lookup:
		coll, at = x.X, x
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		switch p := x.X.(type) {
		case *ssa.Alloc:
			// A result kept in its slot while deferred calls run: what
			// was stored there.
			return a.takenStored(fn, entry, p, depth)
		case *ssa.IndexAddr:
			coll, at = p.X, x
		case *ssa.FieldAddr:
			return fieldKey(p.X.Type(), p.Field), a.bodyLocksOf(fn).held(x, entry)
		}
	}
	if coll == nil {
		return "", nil
	}
	if load, ok := coll.(*ssa.UnOp); ok && load.Op == token.MUL {
		coll = load.X
	}
	fa, ok := coll.(*ssa.FieldAddr)
	if !ok {
		return "", nil
	}
	return fieldKey(fa.X.Type(), fa.Field), a.bodyLocksOf(fn).held(at, entry)
}

// assertedFrom is the type assertion v is the value of, nil if none.
func assertedFrom(v ssa.Value) *ssa.TypeAssert {
	switch x := v.(type) {
	case *ssa.TypeAssert:
		return x
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok && x.Index == 0 {
			return ta
		}
	}
	return nil
}

// takenStored is takenAt for the values stored into slot, a local
// variable of fn that nothing captures: each nil, or taken from one
// container.
func (a *run) takenStored(fn *ssa.Function, entry lockSet, slot *ssa.Alloc, depth int) (string, lockSet) {
	if slot.Heap || depth > 2 {
		return "", nil
	}
	var vals []ssa.Value
	for _, ref := range *slot.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != slot {
				return "", nil
			}
			vals = append(vals, x.Val)
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return "", nil
		}
	}
	return a.takenAll(vals, func(v ssa.Value) (string, lockSet) { return a.takenAt(fn, entry, v, depth+1) })
}

// takenAll is the one container all of vals but nils are taken from,
// and the locks held at each; "" if there is no such one.
func (a *run) takenAll(vals []ssa.Value, at func(ssa.Value) (string, lockSet)) (string, lockSet) {
	loc, held := "", lockSet(nil)
	for _, v := range vals {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		l, h := at(v)
		if l == "" || loc != "" && l != loc {
			return "", nil
		}
		if loc == "" {
			loc, held = l, h
		} else {
			held = intersect(held, h)
		}
	}
	return loc, held
}

// takenByCall is takenAt for result i of call, a call in fn: every
// function it can run returns, as that result, nil or what it takes from
// one container, holding a lock (its own) it holds at each of them.
func (a *run) takenByCall(fn *ssa.Function, call *ssa.Call, i, depth int) (string, lockSet) {
	if depth > 2 {
		return "", nil
	}
	var callees []*ssa.Function
	for _, cs := range a.callsOf(fn) {
		if cs.instr == call && cs.entered {
			callees = cs.callees
		}
	}
	type result struct {
		g *ssa.Function
		v ssa.Value
	}
	var results []result
	for _, g := range callees {
		for _, b := range g.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
				results = append(results, result{g, ret.Results[i]})
			}
		}
	}
	if len(results) == 0 {
		return "", nil
	}
	vals := make([]ssa.Value, len(results))
	fns := map[ssa.Value]*ssa.Function{}
	for k, r := range results {
		vals[k] = r.v
		fns[r.v] = r.g
	}
	return a.takenAll(vals, func(v ssa.Value) (string, lockSet) { return a.takenAt(fns[v], nil, v, depth+1) })
}

// puts is where a container field's elements are put: the functions
// and the instructions. bad: the container is used some other way (its
// address or its value handed elsewhere), so its puts are not all known.
type puts struct {
	fns   map[*ssa.Function]bool
	sites []ssa.Instruction
	bad   bool
}

// putsInto is the puts into container field loc, from an index of the
// program's own code built once.
func (a *run) putsInto(loc string) *puts {
	if a.putIndex == nil {
		a.putIndex = map[string]*puts{}
		for _, fn := range a.p.ownFuncs() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if fa, ok := instr.(*ssa.FieldAddr); ok {
						a.indexPuts(fa)
					}
				}
			}
		}
	}
	if p := a.putIndex[loc]; p != nil {
		return p
	}
	return &puts{}
}

// indexPuts adds the puts fa, a field's address, serves.
func (a *run) indexPuts(fa *ssa.FieldAddr) {
	k := fieldKey(fa.X.Type(), fa.Field)
	if k == "" {
		return
	}
	p := a.putIndex[k]
	if p == nil {
		p = &puts{fns: map[*ssa.Function]bool{}}
		a.putIndex[k] = p
	}
	put := func(instr ssa.Instruction) {
		p.fns[instr.Parent()] = true
		p.sites = append(p.sites, instr)
	}
	for _, ref := range *fa.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if x.Val == fa {
				p.bad = true
			} else if !emptyContainer(x.Val) {
				put(x) // the field set: what it holds now
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || !containerUses(x, put) {
				p.bad = true
			}
		case *ssa.IndexAddr:
			if !elementUses(x, put) {
				p.bad = true
			}
		default:
			p.bad = true
		}
	}
}

// emptyContainer reports whether v, stored into a container field, is a
// new empty one or nil: it puts no element there.
func emptyContainer(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeMap:
		return true
	case *ssa.MakeSlice:
		return true
	case *ssa.Const:
		return x.IsNil()
	}
	return false
}

// containerUses reports whether load, a container loaded from a field,
// is only looked into, ranged over, measured, deleted from, appended to
// (the result going back to a field) or has elements put (each reported
// to put).
func containerUses(load *ssa.UnOp, put func(ssa.Instruction)) bool {
	for _, ref := range *load.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef, *ssa.Lookup, *ssa.Range, *ssa.Slice, *ssa.Field:
		case *ssa.MapUpdate:
			if x.Map != load {
				return false
			}
			put(x)
		case *ssa.IndexAddr:
			if !elementUses(x, put) {
				return false
			}
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok {
				return false
			}
			switch b.Name() {
			case "len", "cap", "delete", "clear":
			case "append":
				if !storedToField(x) {
					return false
				}
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// elementUses reports whether ia, an element's address, is only loaded
// or stored into (a put).
func elementUses(ia *ssa.IndexAddr, put func(ssa.Instruction)) bool {
	for _, ref := range *ia.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef, *ssa.UnOp:
		case *ssa.Store:
			if x.Val == ia {
				return false
			}
			put(x)
		default:
			return false
		}
	}
	return true
}

// storedToField reports whether what call (an append) returns goes only
// into fields (where the field's own store is a put).
func storedToField(call *ssa.Call) bool {
	for _, ref := range *call.Referrers() {
		switch x := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if _, ok := x.Addr.(*ssa.FieldAddr); !ok || x.Val != call {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// lockedPuts reports whether every put into loc holds one of held's
// locks (the ones its own function takes).
func (a *run) lockedPuts(loc string, held lockSet) bool {
	p := a.putsInto(loc)
	if p.bad || len(p.sites) == 0 {
		return false
	}
	for _, s := range p.sites {
		if !intersects(a.bodyLocksOf(s.Parent()).held(s, nil), held) {
			return false
		}
	}
	return true
}

// keptKey is keptBeforeOnce's memo key.
type keptKey struct {
	f    frame
	v    ssa.Value
	from ssa.Instruction
	loc  string
}

// keptBeforeOnce is keptBefore, worked out once.
func (a *run) keptBeforeOnce(f frame, v ssa.Value, from ssa.Instruction, loc string) bool {
	k := keptKey{f, v, from, loc}
	if kept, ok := a.keptMemo[k]; ok {
		return kept
	}
	if a.keptMemo == nil {
		a.keptMemo = map[keptKey]bool{}
	}
	kept := a.keptBefore(f, v, from, loc)
	a.keptMemo[k] = kept
	return kept
}

// keptBefore reports whether, in frame f, nothing that can run before
// f.at (and, in the frame that made the object, after from, its making)
// can put anything into loc (no call, callback or goroutine it starts
// reaches a put), and v, the object in that frame, is let go nowhere but
// into itself, into calls that keep it, and into goroutines and function
// literals that reach no put.
func (a *run) keptBefore(f frame, v ssa.Value, from ssa.Instruction, loc string) bool {
	p := a.putsInto(loc)
	before := func(instr ssa.Instruction) bool {
		if instr == f.at || !reaches(instr, f.at) {
			return false
		}
		return from == nil || instr == from || reaches(from, instr)
	}
	for _, cs := range a.callsOf(f.fn) {
		if !before(cs.instr) {
			continue
		}
		for _, fns := range [][]*ssa.Function{cs.callees, cs.callbacks, cs.sp.fns} {
			for _, g := range fns {
				if a.reachesPut(g, p) {
					return false
				}
			}
		}
	}
	w := &goWalk{a: a, p: p, before: before, mine: map[ssa.Value]bool{objectOf(v): true}}
	return !w.letGo(v, 0)
}

// reachesPut reports whether a call of g can run a put of p.
func (a *run) reachesPut(g *ssa.Function, p *puts) bool {
	for fn := range a.reachable(g) {
		if p.fns[fn] {
			return true
		}
	}
	return false
}
