package lockstate

// A function's net lock effect, measured against the entry its body
// implies (firstUse): what it acquires, releases, downgrades, takes and
// leaves free, and releases and takes back (retakes).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// firstUse notes the first operation on a lock that nothing on any path
// here has touched since the function's entry; it shows what the caller
// left it as. Unlocking an unlocked mutex is a fatal error, so a release
// means the caller holds it (read-locked, for RUnlock); taking it means
// the caller does not (else this deadlocks). The net effect is measured
// against that entry: a helper that steps out of its caller's lock and
// takes it back (testing.B.Run) changes nothing, and neither does one that
// locks and defers the unlock.
func (fa *funcAnalysis) firstUse(s *State, p lockpath.Path, v LockVal) {
	if cur := s.Lock(p); cur.Mode != Unknown || cur.Site != token.NoPos {
		return
	}
	if _, ok := fa.assumed[p]; ok {
		return
	}
	var mode Mode
	switch {
	case v.Mode == NotHeld && v.Read:
		mode = Shared
	case v.Mode == NotHeld:
		mode = Exclusive
	case v.Mode.Held():
		mode = NotHeld
	default:
		return
	}
	if fa.assumed == nil {
		fa.assumed = map[lockpath.Path]LockVal{}
	}
	fa.assumed[p] = LockVal{Mode: mode, Site: fa.entryPos()}
}

// entryPos is where the body starts, the site of locks held on entry.
func (fa *funcAnalysis) entryPos() token.Pos {
	if fa.lit != nil {
		return fa.lit.Pos()
	}
	return fa.decl.Name.Pos()
}

// impliedEntry is the entry state with the locks the body shows its caller
// holds or leaves free (see firstUse).
func (fa *funcAnalysis) impliedEntry(entry *State) *State {
	if len(fa.assumed) == 0 {
		return entry
	}
	out := entry.clone()
	for p, v := range fa.assumed {
		if out.Lock(p).Mode == Unknown {
			out.set(p, v)
		}
	}
	return out
}

// netChanges returns the locks that every exit leaves in the same definite
// state, different from entry: the function's net effect.
func netChanges(exits []*State, entry *State, keep func(lockpath.Path) bool) map[lockpath.Path]LockVal {
	if len(exits) == 0 {
		return nil
	}
	out := map[lockpath.Path]LockVal{}
	seen := map[lockpath.Path]bool{}
	for _, ex := range exits {
		for p := range lockEntries(ex.locks) {
			seen[p] = true
		}
	}
	for p := range seen {
		if !keep(p) {
			continue
		}
		first := exits[0].Lock(p)
		same := first.Mode != Unknown && first.Mode != Maybe
		for _, ex := range exits[1:] {
			if v := ex.Lock(p); v.Mode != first.Mode || v.Read != first.Read {
				same = false
			}
		}
		if same && first.Mode != entry.Lock(p).Mode {
			out[p] = LockVal{Mode: first.Mode, Read: first.Read}
		}
	}
	return out
}

// effects turns a declared function's net changes into a Contract whose
// paths are rooted at its receiver, parameters or package-level variables.
func (fa *funcAnalysis) effects(exits []*State) *directives.Contract {
	params := directives.ParamIndex(fa.sig)
	keep := fa.effectKeep()
	implied := fa.impliedEntry(fa.entry)
	changes := netChanges(exits, implied, keep)
	freed := fa.freed(exits, keep)
	if len(changes)+len(freed) == 0 {
		return nil
	}
	c := &directives.Contract{}
	refOf := func(p lockpath.Path) directives.LockRef {
		if i, ok := params[p.Root]; ok {
			return directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}
		}
		return directives.LockRef{Kind: directives.Global, PkgPath: p.Root.Pkg().Path(), Name: p.Root.Name(), Sel: p.Sel, Text: p.String()}
	}
	// Taken and left free: the caller must not hold it, and it is free
	// after the call (see applyEffects).
	for _, p := range freed {
		c.Excludes = append(c.Excludes, refOf(p))
	}
	for p, v := range changes {
		ref := refOf(p)
		switch {
		case v.Mode == Exclusive:
			c.Acquires = append(c.Acquires, ref)
		case v.Mode == Shared && implied.Lock(p).Mode == Exclusive:
			c.Downgrades = append(c.Downgrades, ref)
		case v.Mode == Shared:
			c.RAcquires = append(c.RAcquires, ref)
		case v.Mode == NotHeld && v.Read:
			c.RReleases = append(c.RReleases, ref)
		case v.Mode == NotHeld:
			c.Releases = append(c.Releases, ref)
		}
	}
	for _, refs := range []*[]directives.LockRef{&c.Acquires, &c.RAcquires, &c.Releases, &c.RReleases, &c.Excludes, &c.Downgrades} {
		sortRefs(*refs)
	}
	return c
}

// effectKeep says which locks a function's effects can name: those
// rooted at a parameter it never reassigns (c = c.parent no longer names
// the caller's argument) or at a package-level variable.
func (fa *funcAnalysis) effectKeep() func(lockpath.Path) bool {
	params := directives.ParamIndex(fa.sig)
	return func(p lockpath.Path) bool {
		_, isParam := params[p.Root]
		v, isVar := p.Root.(*types.Var)
		return (isParam && fa.res.Stable(v)) || (isVar && isPackageLevel(v))
	}
}

// retakes lists the caller's locks the body releases first (so its caller
// holds them) and holds again at every return.
func (fa *funcAnalysis) retakes(exits []*State) []directives.LockRef {
	if len(exits) == 0 {
		return nil
	}
	params := directives.ParamIndex(fa.sig)
	var out []directives.LockRef
	for p, v := range fa.assumed {
		if !v.Mode.Held() {
			continue
		}
		i, isParam := params[p.Root]
		if !isParam || !fa.res.Stable(p.Root.(*types.Var)) {
			continue
		}
		held := true
		for _, ex := range exits {
			if !ex.Lock(p).Mode.Held() {
				held = false
			}
		}
		if held {
			out = append(out, directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()})
		}
	}
	sortRefs(out)
	return out
}

// applyRetakes starts a new critical section, at the call, for each lock
// the callee releases and takes again: what was read before the call may
// be stale after it. sync.Cond.Wait does this to the lock of the object
// that owns the Cond (c.cond.Wait() with c.mu held), or to its L.
func (fa *funcAnalysis) applyRetakes(call *ast.CallExpr, callee *types.Func, s *State) {
	retake := func(p lockpath.Path) {
		switch v := s.Lock(p); {
		case v.Mode.Held():
			s.set(p, LockVal{Mode: v.Mode, Site: call.Lparen})
		case v.Mode == Unknown:
			// Releasing a lock not held is fatal, so the caller holds it
			// (as firstUse assumes for a plain Unlock).
			fa.firstUse(s, p, LockVal{Mode: NotHeld})
			s.set(p, LockVal{Mode: Exclusive, Site: call.Lparen})
		}
	}
	if isCondWait(callee) {
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		cond := fa.res.Of(se.X)
		if !cond.Valid() {
			return
		}
		for _, p := range s.Held() {
			if p.Root == cond.Root && (p.Sel == cond.Sel+".L" || p.Owner() == cond.Owner()) {
				s.set(p, LockVal{Mode: s.Lock(p).Mode, Site: call.Lparen})
			}
		}
		return
	}
	for _, r := range fa.a.retakesOf(callee) {
		if p := fa.refAtCall(r, call, callee); p.Valid() {
			retake(p)
		}
	}
}

// isCondWait reports whether fn is (*sync.Cond).Wait.
func isCondWait(fn *types.Func) bool {
	return fn != nil && fn.Name() == "Wait" && locks.MethodOf(fn, "sync", "Cond")
}

func sortRefs(refs []directives.LockRef) {
	for i := 1; i < len(refs); i++ {
		for j := i; j > 0 && refs[j].Text < refs[j-1].Text; j-- {
			refs[j], refs[j-1] = refs[j-1], refs[j]
		}
	}
}
