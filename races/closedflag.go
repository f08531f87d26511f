package races

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A closed flag: a bool field set, under a lock of its struct, by the
// one call that saw it false there, and never set back.
//
//	func (c *Conn) Write(b []byte) error {
//		c.mu.Lock()
//		if c.closed { c.mu.Unlock(); return errClosed }
//		c.buf = append(c.buf, b...)
//		c.mu.Unlock()
//	}
//	func (c *Conn) Close() error {
//		c.mu.Lock()
//		if c.closed { c.mu.Unlock(); return nil }
//		c.closed = true
//		c.mu.Unlock()
//		c.buf = nil
//	}
//
// Every section of mu that saw closed false ended before Close's began,
// and every later one sees it true: Close's code after its unlock runs
// alone beside all of them. The body dataflow (locks.go) holds a pseudo
// lock, mu|closed ("mu with closed unset"), from the branch where a
// section that took mu sees closed false until mu is released; a section
// that then sets closed keeps it for good (marked mu|closed#). Two
// holders of mu|closed never run at once, so accesses both make do not
// race. Only one call can set the flag from false, so the pseudo lock
// kept after the unlock has one holder per object.
//
// A flag qualifies (flagFields) when every store into it puts true, but
// those into an object not yet published (its set-up), and nothing takes
// its address. A section that sets the flag without checking it first
// (Abort) keeps nothing: it may run after Close.

// flagFields is the bool fields that qualify as closed flags, by key.
func (a *run) flagFields(fns []*ssa.Function) map[string]bool {
	flags := map[string]bool{}
	bad := map[string]bool{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok || !isBool(deref(fa.Type())) {
					continue
				}
				k := fieldAddrKey(fa)
				if k == "" || bad[k] {
					continue
				}
				switch a.flagUse(fa) {
				case flagSet:
					flags[k] = true
				case flagOther:
					bad[k] = true
				}
			}
		}
	}
	for k := range bad {
		delete(flags, k)
	}
	// Only a flag some call closes, checking it false and then setting
	// it: the others would hold pseudo locks no call keeps.
	closed := map[string]bool{}
	for _, fn := range fns {
		for _, k := range closersIn(fn) {
			closed[k] = true
		}
	}
	for k := range flags {
		if !closed[k] {
			delete(flags, k)
		}
	}
	return flags
}

// closersIn is the bool fields fn sets to true on the way where a branch
// found them false, on the same object: if c.closed { ... }; c.closed =
// true.
func closersIn(fn *ssa.Function) []string {
	var out []string
	for _, b := range fn.Blocks {
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		checked, unset := loadedField(br.Cond)
		if checked == nil {
			continue
		}
		way := b.Succs[unset]
		refs := checked.X.Referrers()
		if len(way.Preds) != 1 || refs == nil {
			continue // reached other ways too, or a package variable's field (a global has no referrers)
		}
		for _, ref := range *refs {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || fa.Field != checked.Field {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa && isTrue(st.Val) && way.Dominates(st.Block()) {
					out = append(out, fieldAddrKey(fa))
				}
			}
		}
	}
	return out
}

type flagUseKind uint8

const (
	flagRead  flagUseKind = iota // loaded only, or set up unpublished
	flagSet                      // true stored
	flagOther                    // anything else: false stored, the address taken
)

// flagUse is how the uses of fa, a bool field's address, treat it.
func (a *run) flagUse(fa *ssa.FieldAddr) flagUseKind {
	use := flagRead
	for _, ref := range *fa.Referrers() {
		switch x := ref.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return flagOther
			}
		case *ssa.Store:
			switch {
			case x.Addr != fa:
				return flagOther
			case isTrue(x.Val):
				use = flagSet
			case !a.unpublished(fa, x):
				return flagOther
			}
		case *ssa.DebugRef:
		default:
			return flagOther
		}
	}
	return use
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func isTrue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
}

// flagPseudo is the pseudo lock of lock key and flag f, and the mark of
// the one that is kept after the lock's release.
func flagPseudo(lock, f string) string { return lock + "|" + f }

func keptMark(pseudo string) string { return pseudo + "#" }

// pseudoLock is the lock a pseudo key is of, and whether key is one
// (a mark is not).
func pseudoLock(key string) (string, bool) {
	i := strings.IndexByte(key, '|')
	if i < 0 || strings.HasSuffix(key, "#") {
		return "", false
	}
	return key[:i], true
}

// flagCheck is the flag cond loads, and the successor of an If on cond
// where the flag is false; "" if cond is no load of a closed flag.
func (env lockEnv) flagCheck(cond ssa.Value) (string, int) {
	fa, unset := loadedField(cond)
	if fa == nil || !env.flags[fieldAddrKey(fa)] {
		return "", 0
	}
	return fieldAddrKey(fa), unset
}

// loadedField is the field cond, a branch's condition, loads (c.closed,
// or !c.closed), and the successor where it is false; nil if cond is no
// such load.
func loadedField(cond ssa.Value) (*ssa.FieldAddr, int) {
	unset := 1
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, unset = not.X, 0
	}
	load, ok := cond.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, 0
	}
	fa, _ := load.X.(*ssa.FieldAddr)
	return fa, unset
}

// sameStruct reports whether lock and flag are fields of one struct.
func sameStruct(lock, flag string) bool {
	i, j := strings.LastIndexByte(lock, '.'), strings.LastIndexByte(flag, '.')
	return i > 0 && j > 0 && lock[:i] == flag[:j]
}

// takeFlag is the state on the way where flag is false: each lock of its
// struct the body took holds its pseudo lock there.
func takeFlag(s state, flag string) state {
	var add []string
	for k, v := range s.c {
		if v >= 1 && !strings.ContainsRune(k, '|') && sameStruct(k, flag) && s.c[flagPseudo(k, flag)] == 0 {
			add = append(add, flagPseudo(k, flag))
		}
	}
	if len(add) == 0 {
		return s
	}
	out := s.copy() // s goes to the other way too
	for _, k := range add {
		out.c[k] = 1
	}
	return out
}

// setFlag marks the pseudo locks of flag this section holds as kept: it
// stores true into it, having seen it false.
func (s *state) setFlag(flag string) {
	for k := range s.c {
		if lock, ok := pseudoLock(k); ok && strings.HasSuffix(k, "|"+flag) && s.c[lock] >= 1 {
			s.c[keptMark(k)] = 1
		}
	}
}

// dropFlags drops the pseudo locks whose lock is no longer held, but
// those kept for good.
func dropFlags(c counts) {
	for k := range c {
		if lock, ok := pseudoLock(k); ok && c[lock] < 1 && c[keptMark(k)] < 1 {
			delete(c, k)
		}
	}
}

// hasFlags reports whether c holds a pseudo lock or mark.
func hasFlags(c counts) bool {
	for k := range c {
		if strings.ContainsRune(k, '|') {
			return true
		}
	}
	return false
}

// validFlags drops from a held set the pseudo locks whose lock it does
// not hold, but those kept for good.
func validFlags(s lockSet) lockSet {
	return without(s, func(k string) bool {
		lock, ok := pseudoLock(k)
		return ok && !s[lock] && !s[keptMark(k)]
	})
}

// flagsFor is h without the pseudo locks (and marks) of flags of another
// struct than the one loc is a field of: a closed flag says who may touch
// its own object's fields (udpConn.conns, reached from a Conn's close,
// is not one of the Conn's).
func flagsFor(h lockSet, loc string) lockSet {
	return without(h, func(k string) bool {
		flag, ok := flagOf(k)
		return ok && !sameStruct(strings.TrimSuffix(loc, "[]"), flag)
	})
}

// flagOf is the flag of a pseudo lock or mark.
func flagOf(k string) (string, bool) {
	i := strings.IndexByte(k, '|')
	if i < 0 {
		return "", false
	}
	return strings.TrimSuffix(k[i+1:], "#"), true
}

// without is s less the keys drop says, s itself if none (sets are never
// changed in place).
func without(s lockSet, drop func(string) bool) lockSet {
	var out lockSet
	for k := range s {
		if drop(k) {
			if out == nil {
				out = s.clone()
			}
			delete(out, k)
		}
	}
	if out == nil {
		return s
	}
	return out
}

// sameLocks reports whether s and t hold the same locks, closed flags'
// pseudo locks aside.
func sameLocks(s, t lockSet) bool {
	if s.equal(t) {
		return true
	}
	n := realShared(s, t)
	return n == realLen(s) && n == realLen(t)
}

// hasPseudo reports whether s holds a closed flag's pseudo lock or mark.
func hasPseudo(s lockSet) bool {
	for k := range s {
		if strings.ContainsRune(k, '|') {
			return true
		}
	}
	return false
}

// flagsInto is held as callee is entered with it, and whether it still
// holds a pseudo lock: only those of flags of a struct callee is handed
// (a parameter, the receiver, a captured variable pointing to one) go
// in. A function handed no such object touches none of its fields
// through it; keeping the pseudo locks would only tell its contexts
// apart (maxContexts) for nothing.
func (a *run) flagsInto(callee *ssa.Function, held lockSet, pseudo bool) (lockSet, bool) {
	if !pseudo {
		return held, false
	}
	handed := a.handedStructs(callee)
	out := without(held, func(k string) bool {
		flag, ok := flagOf(k)
		return ok && !handed[flag[:strings.LastIndexByte(flag, '.')]]
	})
	return out, hasPseudo(out)
}

// handedStructs is the named struct types callee's parameters and
// captured variables point to (or are), by qualified name, worked out
// once.
func (a *run) handedStructs(fn *ssa.Function) map[string]bool {
	if t, ok := a.handed[fn]; ok {
		return t
	}
	t := map[string]bool{}
	add := func(v ssa.Value) {
		typ := deref(v.Type())
		if p, ok := typ.Underlying().(*types.Pointer); ok { // a captured variable's cell
			typ = p.Elem()
		}
		if named, ok := types.Unalias(typ).(*types.Named); ok {
			if _, isStruct := named.Underlying().(*types.Struct); isStruct {
				t[qualifiedName(named)] = true
			}
		}
	}
	for _, p := range fn.Params {
		add(p)
	}
	for _, fv := range fn.FreeVars {
		add(fv)
	}
	if a.handed == nil {
		a.handed = map[*ssa.Function]map[string]bool{}
	}
	a.handed[fn] = t
	return t
}

// mayDropFlags reports whether d, counts from a function's entry, holds a
// pseudo lock or releases a lock held at entry: then a held set made
// from it may hold a pseudo lock whose lock it does not (validFlags).
func mayDropFlags(d counts) bool {
	for k, v := range d {
		if v < 0 || strings.ContainsRune(k, '|') {
			return true
		}
	}
	return false
}
