package races

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// lockSet is a set of locks by key (Session.mu, pkg.mu).
type lockSet map[string]bool

// clone copies s; an empty set is nil, which reads as empty, so that the
// many points that hold no lock cost nothing.
func (s lockSet) clone() lockSet {
	if len(s) == 0 {
		return nil
	}
	c := make(lockSet, len(s))
	for k := range s {
		c[k] = true
	}
	return c
}

// with is s and t's locks together, a new set.
func (s lockSet) with(t lockSet) lockSet {
	out := s.clone()
	if out == nil {
		out = lockSet{}
	}
	for k := range t {
		out[k] = true
	}
	return out
}

// intersect keeps what s and t both hold.
func intersect(s, t lockSet) lockSet {
	if shared(s, t) == len(s) {
		return s // all of s: s itself (sets are never changed in place)
	}
	out := lockSet{}
	for k := range s {
		if t[k] {
			out[k] = true
		}
	}
	return out
}

func (s lockSet) equal(t lockSet) bool {
	if len(s) != len(t) {
		return false
	}
	if len(s) == 0 || sameMap(s, t) {
		return true // one set: sets are shared, never changed in place
	}
	for k := range s {
		if !t[k] {
			return false
		}
	}
	return true
}

func (s lockSet) sorted() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lockKey names the lock a *sync.Mutex value points to: T.f for a field
// of a T (through any number of loads of a pointer field), pkg.v for a
// package variable, F.v for a local variable of F (closures included).
// An element of an array or slice of locks is named by the array, with
// "[]" (Cache.locks[]): sharded locking takes locks[i] for shard i, and
// the elements are one lock to the analysis, which does not tell i from
// j, as it does not tell the shards they guard apart.
func lockKey(v ssa.Value) string {
	for {
		switch x := v.(type) {
		case *ssa.IndexAddr:
			if outer := lockKey(x.X); outer != "" {
				return outer + "[]"
			}
			return ""
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return ""
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.FieldAddr:
			if deref(x.X.Type()).String() == "sync.Cond" {
				// A Cond's Locker: named by where the Cond is held.
				if outer := lockKey(x.X); outer != "" {
					return outer + ".L"
				}
			}
			return fieldAddrKey(x)
		case *ssa.Global:
			return x.Pkg.Pkg.Path() + "." + x.Name()
		case *ssa.Alloc:
			return outermost(x.Parent()).String() + "." + x.Comment
		case *ssa.FreeVar:
			return outermost(x.Parent()).String() + "." + x.Name()
		default:
			return ""
		}
	}
}

func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// fieldKey names field i of the struct a pointer of type ptr points to:
// Session.ptmx; "" if the struct has no name.
func fieldKey(ptr types.Type, i int) string {
	p, ok := types.Unalias(ptr).Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return ""
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	if named.Obj().Pos() > st.Field(0).Pos() {
		named = structOrigin(named, st) // type packetHandlerMap Transport
	}
	return qualifiedName(named) + "." + st.Field(i).Name()
}

// fieldAddrKey is fieldKey for the field fa addresses, and for a field
// of a struct with no name of its own held in a field of a named one (a
// lock grouped with what it guards: Cache.items.mu in struct { items
// struct { mu sync.RWMutex; values map[K]V } }), the outer field's key
// and the field's name.
func fieldAddrKey(fa *ssa.FieldAddr) string {
	if k := fieldKey(fa.X.Type(), fa.Field); k != "" {
		return k
	}
	st, ok := deref(fa.X.Type()).(*types.Struct) // unnamed: a named one has a key of its own
	if !ok || fa.Field >= st.NumFields() {
		return ""
	}
	switch x := fa.X.(type) {
	case *ssa.FieldAddr:
		if outer := fieldAddrKey(x); outer != "" {
			return outer + "." + st.Field(fa.Field).Name()
		}
	case *ssa.Global:
		// A package variable of a struct type with no name (var Opts
		// = struct{ Disable bool }{}): pkg.Opts.Disable.
		if x.Pkg != nil {
			return x.Pkg.Pkg.Path() + "." + x.Name() + "." + st.Field(fa.Field).Name()
		}
	}
	return ""
}

// structOrigin is the named type whose declaration spells st, the struct
// under named, where named is declared after st's fields (type
// packetHandlerMap Transport): the type of its package with that struct
// declared last before st's first field. The two name one struct, whose
// fields and locks are one; named itself if there is none.
func structOrigin(named *types.Named, st *types.Struct) *types.Named {
	pkg := named.Obj().Pkg()
	if pkg == nil {
		return named
	}
	best := named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || tn.Pos() > st.Field(0).Pos() {
			continue
		}
		if t, ok := tn.Type().(*types.Named); ok && t.Underlying() == st && (best == named || tn.Pos() > best.Obj().Pos()) {
			best = t
		}
	}
	return best
}

// qualifiedName is a named type's name as keys hold it, with its
// package's path (two packages may each have a Session); shown drops the
// path.
func qualifiedName(named *types.Named) string {
	name := named.Obj().Name()
	if pkg := named.Obj().Pkg(); pkg != nil {
		name = pkg.Path() + "." + name
	}
	return name
}

// shownType is a qualified type name as findings show it: Session for
// example.com/term.Session.
func shownType(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// shown is a key as findings show it: Session.ptmx for
// example.com/term.Session.ptmx, pkg.v for a package variable.
func shown(key string) string {
	if i := strings.LastIndex(key, "/"); i >= 0 {
		key = key[i+1:]
	}
	if strings.Count(key, ".") >= 2 { // pkg.Type.field: drop pkg
		key = key[strings.Index(key, ".")+1:]
	}
	return key
}

// bodyLocks is what a function body does with locks: at each
// instruction, how many times since entry it has surely taken each lock,
// net of releases (a release of a lock held at entry counts -1). Counting
// keeps two instances of one type apart where a set cannot: with
// first.mu and other.mu both taken, releasing other.mu leaves one held.
type bodyLocks struct {
	delta   map[ssa.Instruction]counts
	reached map[ssa.Instruction]struct{} // the returns the dataflow reaches
	// pruned is the edges (block index, successor index) a branch on a
	// parameter fixed to a constant never takes.
	pruned map[[2]int]bool
	// flags: the body takes a closed flag's pseudo lock, or releases a
	// lock held at entry, with which a pseudo lock goes (closedflag.go).
	flags bool
}

// counts is net acquisitions by lock, between -1 and 2 (a loop that
// takes a lock on every turn stops counting there). A missing key is 0.
type counts map[string]int

// state is the dataflow's value at a point.
type state struct {
	c     counts
	known bool
}

// join is what holds on both paths: the smaller count of each lock.
func (s state) join(t state) state {
	if !s.known {
		return t.copy()
	}
	if !t.known {
		return s.copy()
	}
	return state{c: meet(s.c, t.c), known: true}
}

// meet is what holds on both of two counts: the smaller count of each
// lock, a missing lock counting 0.
func meet(x, y counts) counts {
	out := counts{}
	for k, v := range x {
		if v = min(v, y[k]); v != 0 {
			out[k] = v
		}
	}
	for k, w := range y {
		if _, ok := x[k]; !ok && w < 0 {
			out[k] = w
		}
	}
	return out
}

func (s state) copy() state {
	return state{c: s.c.clone(), known: s.known}
}

func (c counts) clone() counts {
	if len(c) == 0 {
		return nil
	}
	out := make(counts, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}

func (s state) equal(t state) bool {
	if s.known != t.known || len(s.c) != len(t.c) {
		return false
	}
	for k, v := range s.c {
		if t.c[k] != v {
			return false
		}
	}
	return true
}

// lockEnv is what the dataflow needs besides the body: the lock a
// pointer-to-lock field aliases, and the net effect on locks of a call
// (a helper that locks and returns, called directly or through an
// interface).
type lockEnv struct {
	canon   aliases
	effects func(ssa.CallInstruction) counts
	// okDelta is what a call does to locks on top of effects where its
	// error result is nil (branchlocks.go); consts, the parameters fixed to
	// a constant boolean, whose branches only one way is taken.
	okDelta func(*ssa.Call) counts
	consts  map[*ssa.Parameter]bool
	// flagged: a lock a branch on a boolean parameter takes is held on
	// the other way too (flagLocks); for held sets, not effects.
	flagged bool
	// flags is the closed flags (closedflag.go), by field key.
	flags map[string]bool
	// twins is twinLocks' answers, by branch (nil: not kept).
	twins map[*ssa.If]twin
}

// step applies one instruction, naming locks by canon. Deferred
// releases run at return, so a defer changes nothing here; a call of a
// helper applies the helper's net effect.
func (s *state) step(instr ssa.Instruction, env lockEnv) {
	if st, ok := instr.(*ssa.Store); ok && len(env.flags) > 0 && isTrue(st.Val) {
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok && env.flags[fieldAddrKey(fa)] {
			s.setFlag(fieldAddrKey(fa)) // closedflag.go
		}
		return
	}
	call, ok := instr.(*ssa.Call)
	if !ok {
		return
	}
	op, ok := asLockOp(call)
	if !ok {
		if env.effects != nil {
			for k, d := range env.effects(call) {
				s.apply(k, d)
			}
		}
	} else if op.acquire {
		s.apply(env.canon.of(op.key), 1)
	} else {
		s.apply(env.canon.of(op.key), -1)
	}
	if len(env.flags) > 0 && hasFlags(s.c) {
		dropFlags(s.c) // a section's pseudo locks go with its lock
	}
}

// apply adds d to the count of key, within [-1, 2].
func (s *state) apply(key string, d int) {
	if s.c == nil {
		s.c = counts{}
	}
	v := min(max(s.c[key]+d, -1), 2)
	if v == 0 {
		delete(s.c, key)
	} else {
		s.c[key] = v
	}
}

// analyseLocks runs the dataflow over fn's blocks.
func analyseLocks(fn *ssa.Function, env lockEnv) *bodyLocks {
	bl := &bodyLocks{delta: map[ssa.Instruction]counts{}, reached: map[ssa.Instruction]struct{}{}}
	if len(fn.Blocks) == 0 {
		return bl
	}
	in := make([]state, len(fn.Blocks))
	in[0] = state{known: true}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	queued := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		queued[b] = false
		s := in[b.Index].copy()
		for _, instr := range b.Instrs {
			s.step(instr, env)
		}
		for i, succ := range b.Succs {
			out, taken := env.edge(b, i, s)
			if !taken {
				if bl.pruned == nil {
					bl.pruned = map[[2]int]bool{}
				}
				bl.pruned[[2]int{b.Index, i}] = true
				continue
			}
			next := in[succ.Index].join(out)
			if !next.equal(in[succ.Index]) {
				in[succ.Index] = next
				if !queued[succ] {
					queued[succ] = true
					work = append(work, succ)
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		s := in[b.Index].copy()
		if !s.known {
			continue // unreachable
		}
		for _, instr := range b.Instrs {
			if d := s.c.clone(); d != nil {
				bl.delta[instr] = d
				bl.flags = bl.flags || len(env.flags) > 0 && mayDropFlags(d)
			}
			if _, ok := instr.(*ssa.Return); ok {
				bl.reached[instr] = struct{}{}
			}
			s.step(instr, env)
		}
	}
	return bl
}

// held is the locks held at instr when fn is entered holding entry.
func (bl *bodyLocks) held(instr ssa.Instruction, entry lockSet) lockSet {
	d := bl.delta[instr]
	if len(d) == 0 {
		return entry // nothing taken or released on the way: the entry's (never changed in place)
	}
	var out lockSet
	add := func(k string) {
		if out == nil {
			out = lockSet{}
		}
		out[k] = true
	}
	for k := range entry {
		if d[k] >= 0 {
			add(k)
		}
	}
	for k, v := range d {
		if v > 0 {
			add(k)
		}
	}
	if bl.flags {
		return validFlags(out)
	}
	return out
}

// describe is a lock set as a finding says it: "Session.mu", or "none".
func describe(s lockSet) string {
	if len(s) == 0 {
		return "none"
	}
	var out []string
	for _, k := range s.sorted() {
		if strings.ContainsRune(k, '|') {
			continue // a closed flag's pseudo lock (closedflag.go): no lock to take
		}
		out = append(out, shown(k))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// aliases maps a pointer-to-lock field to the lock it is set to point
// at: with keeper.mu = &tokens.mu (a *sync.Mutex field set to the address
// of another struct's mutex), keeper.mu.Lock() takes tokens.mu. Only a
// field every store in the program sets to one lock is an alias.
type aliases map[string]string

func (al aliases) of(key string) string {
	if k, ok := al[key]; ok && k != "" {
		return k
	}
	return key
}

// findAliases scans fns for stores of a lock's address into a field or
// package variable of pointer-to-lock type.
func findAliases(fns []*ssa.Function) aliases {
	al := aliases{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !isLockPtr(st.Val.Type()) {
					continue
				}
				dst, src := lockKey(st.Addr), lockKey(st.Val)
				if dst == "" || src == "" || dst == src {
					continue
				}
				if old, seen := al[dst]; seen && old != src {
					al[dst] = "" // set to different locks: not an alias
					continue
				}
				al[dst] = src
			}
		}
	}
	return al
}

func isLockPtr(t types.Type) bool {
	s := t.String()
	return s == "*sync.Mutex" || s == "*sync.RWMutex"
}

// effect is fn's net effect on locks, as its callers see it: the counts
// at its returns (the least at any), after its deferred lock operations
// run. A helper that locks and returns has +1; a function that locks and
// unlocks, 0. Where fn's last result is an error, ok is the least at the
// returns that can give a nil error (branchlocks.go): those returning a
// non-nil one leave out, and one returning what a call gave adds what
// that call does where it succeeds.
func effect(fn *ssa.Function, bl *bodyLocks, env lockEnv) lockEffect {
	var out lockEffect
	first, firstOk := true, true
	canon := env.canon
	var defers []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				defers = append(defers, d)
			}
		}
	}
	errResult := returnsError(fn)
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if _, reached := bl.reached[ret]; !reached {
			continue
		}
		at := counts{}
		for k, v := range bl.delta[ret] {
			at[k] = v
		}
		// A deferred operation runs at the returns it was registered
		// before on every path: not at an early return ahead of
		// nc.mu.RLock(); defer nc.mu.RUnlock(), where the SSA runs
		// the defers too but none was registered.
		for _, d := range defers {
			if !bl.alwaysBefore(d, ret) {
				continue
			}
			if op := deferredLockOp(d); op.key == "" {
				for k, v := range deferredEffect(d, at, env) {
					at[k] += v
				}
			} else if op.acquire {
				at[canon.of(op.key)]++
			} else {
				at[canon.of(op.key)]--
			}
		}
		if len(env.flags) > 0 && hasFlags(at) {
			dropFlags(at) // released by a deferred unlock
		}
		if first {
			out.all, first = meet(at, at), false
		} else {
			out.all = meet(out.all, at)
		}
		atOk := at
		if errResult {
			switch e := returned(ret, len(ret.Results)-1); {
			case nonNilError(e), failedOn(e, b):
				continue // an error return: not where fn succeeds
			case errorOf(e) != nil:
				atOk = plus(at, env.okDelta(errorOf(e)))
			}
		}
		if firstOk {
			out.ok, firstOk = meet(atOk, atOk), false
		} else {
			out.ok = meet(out.ok, atOk)
		}
	}
	if firstOk {
		out.ok = out.all // no return succeeds: nothing to tell apart
	}
	return out
}

// deferredEffect is what a helper deferred at d (defer tx.Unlock(),
// where the transaction's Unlock releases its lock) does to locks at a
// return where the function holds at (counted from its entry): its
// effect, as far as it undoes what the function did. A release of a lock
// the function does not hold there is left out: a closure that releases
// only on a flag (fsUnlock := func() { if needLock { fs.mu.Unlock() } };
// fsLock(); defer fsUnlock(), or defer func() { if !unlocked {
// fs.mu.Unlock() } }() after an explicit unlock) has the release in its
// effect, but not the flag that keeps it from running, and would take
// from the callers a lock they hold.
func deferredEffect(d *ssa.Defer, at counts, env lockEnv) counts {
	if env.effects == nil {
		return nil
	}
	var out counts
	for k, v := range env.effects(d) {
		switch {
		case v < 0:
			v = -min(-v, max(at[k], 0))
		case v > 0:
			v = min(v, max(-at[k], 0))
		}
		if v != 0 {
			if out == nil {
				out = counts{}
			}
			out[k] = v
		}
	}
	return out
}

// alwaysBefore reports whether every path the dataflow takes from fn's
// entry to ret runs d first: d dominates ret once the edges a constant
// parameter rules out are left out (if lock { mu.Lock(); defer
// mu.Unlock() } called with lock true always defers the release).
func (bl *bodyLocks) alwaysBefore(d, ret ssa.Instruction) bool {
	db, rb := d.Block(), ret.Block()
	if db == rb {
		return index(d) < index(ret)
	}
	if len(bl.pruned) == 0 {
		return dominates(d, ret)
	}
	// Is ret reachable from the entry without passing d's block?
	entry := rb.Parent().Blocks[0]
	if entry == db {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{entry: true}
	work := []*ssa.BasicBlock{entry}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == rb {
			return false
		}
		for i, succ := range b.Succs {
			if succ != db && !seen[succ] && !bl.pruned[[2]int{b.Index, i}] {
				seen[succ] = true
				work = append(work, succ)
			}
		}
	}
	return true
}

// deferredLockOp is the lock operation a defer runs, if it is one.
func deferredLockOp(d *ssa.Defer) lockOp {
	op, _ := lockOpOf(&d.Call)
	return op
}
