package guardinfer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Races between code that runs concurrently, for a field no guard was
// inferred for: RacerD's reasoning with Go's names. Two accesses of the
// field race when
//
//   - they run in different threads: an exported method of a type that
//     holds a lock (callers may call them at once: RacerD's assumption for
//     a class that synchronises), a goroutine (a go statement's closure or
//     method), or a helper called from one of them;
//   - at least one is a plain write;
//   - no lock is held at both (the lock sets below), and one of them holds
//     none at all.
//
// The field must be accessed under a lock somewhere: the author treats it
// as shared. Accesses on objects not yet shared, in init helpers, once
// closures and test files are left out before (gather), as for inferred
// guards.

// thread is where an access runs concurrently with others: an exported
// method, or a goroutine.
type thread struct {
	key   any    // the entry: its *types.Func or *ast.FuncLit
	label string // "exported Session.Resize", "the goroutine started at pty.go:40"
	// goroutine: the entry is a goroutine, started at start; starter: a
	// function that started a goroutine with the object and has not
	// joined it, declared in decl; exported: an exported method.
	goroutine, starter, exported bool
	start                        token.Pos
	decl                         *ast.FuncDecl
}

// maxThreadDepth bounds how far up the callers threadOf looks.
const maxThreadDepth = 3

// threadOf returns the thread an access of f runs in.
func (r *inference) threadOf(f *lockstate.Func) (thread, bool) { return r.threadAt(f, 0) }

// threadAt is threadOf, depth callers up.
func (r *inference) threadAt(f *lockstate.Func, depth int) (thread, bool) {
	if f.Context == lockstate.Goroutine && f.Lit != nil {
		return thread{key: f.Lit, label: "the goroutine started at " + r.site(f.Lit.Pos()), goroutine: true, start: f.Lit.Pos()}, true
	}
	if f.Lit != nil && f.Context != lockstate.Inline && f.Context != lockstate.Deferred {
		return thread{}, false
	}
	return r.entryThread(f.Obj.Origin(), depth)
}

// entryThread is the thread fn runs in: its own (an exported method of a
// type with a lock, a function started with go) or, for an unexported
// method, the first of its callers'.
func (r *inference) entryThread(fn *types.Func, depth int) (thread, bool) {
	if th, ok := r.threads[fn]; ok {
		return th, th.key != nil
	}
	r.threads[fn] = thread{} // recursion: nothing
	th, ok := r.ownThread(fn)
	if !ok && depth < maxThreadDepth {
		for _, site := range r.callers[fn] {
			if r.pass.Fset.File(site.call.Node.Pos()) != nil && strings.HasSuffix(r.pass.Fset.File(site.call.Node.Pos()).Name(), "_test.go") {
				continue // a test's goroutines are not the package's threads
			}
			if t, found := r.threadAt(site.fn, depth+1); found {
				th, ok = t, true
				break
			}
		}
	}
	if ok {
		r.threads[fn] = th
	}
	return th, ok
}

// directWrite reports whether a write access stores into the field
// itself, or into an element of the map or slice it holds (x.f = v,
// x.f++, x.f[k] = v), rather than through the pointer it holds
// (x.f.g = v writes g, which a read of x.f does not race with, unless
// x.f is a struct value and g a part of it).
func (r *inference) directWrite(a *lockstate.Access) bool {
	file := r.fileOf(a.Node.Pos())
	if file == nil {
		return true
	}
	path, _ := astutil.PathEnclosingInterval(file, a.Node.Pos(), a.Node.End())
	var child ast.Node = a.Node
	for _, n := range path {
		if n == a.Node {
			continue
		}
		switch n := n.(type) {
		case *ast.ParenExpr:
			child = n
			continue
		case *ast.IndexExpr:
			if n.X == child {
				if _, isPtr := r.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Pointer); !isPtr {
					child = n // an element of the map or slice
					continue
				}
			}
			return false
		case *ast.SelectorExpr:
			if _, isStruct := r.pass.TypesInfo.TypeOf(child.(ast.Expr)).Underlying().(*types.Struct); isStruct && n.X == child {
				child = n // a part of a struct value: the field's own memory
				continue
			}
			return false // through the pointer
		case *ast.StarExpr:
			return false // through the pointer
		}
		return true
	}
	return true
}

// fileOf returns the syntax of the package file holding pos.
func (r *inference) fileOf(pos token.Pos) *ast.File {
	for _, f := range r.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// inTest reports whether a is in a test file.
func (r *inference) inTest(a *lockstate.Access) bool { return r.inTestFile(a.Pos) }

// inTestFile reports whether pos is in a test file.
func (r *inference) inTestFile(pos token.Pos) bool {
	return strings.HasSuffix(r.pass.Fset.File(pos).Name(), "_test.go")
}

// onOwnObject reports whether a is made on the object its function works
// on, as RacerD only compares accesses through "this": a field of the
// method's receiver (whose type declares the field and is not itself a
// lock), or of a variable a goroutine closure captures or a starter hands
// its goroutine. An access through another object (an options struct, a
// request, a local copy) could be on any instance, and the threads say
// nothing about it.
func (r *inference) onOwnObject(f *lockstate.Func, a *lockstate.Access, owner *types.Struct) bool {
	if !a.Base.Valid() || a.Base.Sel != "" {
		return false
	}
	v, ok := a.Base.Root.(*types.Var)
	if !ok {
		return false
	}
	n, ok := types.Unalias(astq.Deref(v.Type())).(*types.Named)
	if !ok || n.Underlying() != types.Type(owner) {
		return false
	}
	if isLock, _ := locks.IsLock(n); isLock {
		return false // a lock's own implementation
	}
	if f.Lit != nil {
		return !astq.Contains(f.Lit, func(x ast.Node) bool {
			id, ok := x.(*ast.Ident)
			return ok && r.pass.TypesInfo.Defs[id] == types.Object(v)
		}) // captured, not declared in the closure
	}
	if recv := f.Obj.Type().(*types.Signature).Recv(); recv != nil && types.Object(recv) == types.Object(v) {
		return true
	}
	return r.ctx.withOwnGoroutine(f, v, nil, a.Pos)
}

// atEntry reports whether a is made in the body of its thread's entry (the
// exported method, the goroutine's function or closure, the starter)
// rather than in a helper it calls, whose callers may hold locks on paths
// the entry lock set does not see.
func (r *inference) atEntry(a *lockstate.Access, th thread) bool {
	f := r.funcOf[a]
	if f == nil {
		return false
	}
	if f.Lit != nil && f.Context == lockstate.Goroutine {
		return th.key == any(f.Lit)
	}
	return th.key == any(f.Obj.Origin()) || th.key == any(f.Obj)
}

// starterThread is the thread of an access a function makes on an object
// while a goroutine it started with the object may run (a constructor's
// write after its go statement): the function's own.
func (r *inference) starterThread(f *lockstate.Func, a *lockstate.Access) (thread, bool) {
	se, ok := a.Node.(*ast.SelectorExpr)
	if !ok || !r.ctx.withOwnGoroutine(f, accessRoot(r.pass.TypesInfo, se), firstField(r.pass.TypesInfo, se, accessRoot(r.pass.TypesInfo, se)), a.Pos) {
		return thread{}, false
	}
	return thread{key: f.Obj, label: f.Obj.Name() + ", after it starts a goroutine with the object", starter: true, decl: f.Decl}, true
}

// ownThread is fn's own thread: an exported method of a named type whose
// struct holds a lock, or a function a go statement of the package starts.
func (r *inference) ownThread(fn *types.Func) (thread, bool) {
	if pos, ok := r.goTargets()[fn]; ok {
		return thread{key: fn, label: "the goroutine started at " + r.site(pos), goroutine: true, start: pos}, true
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !fn.Exported() {
		return thread{}, false
	}
	n, ok := types.Unalias(astq.Deref(sig.Recv().Type())).(*types.Named)
	if !ok {
		return thread{}, false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok || !locks.HasLockField(st) || !n.Obj().Exported() || r.typeDocSaysSerial(n) {
		return thread{}, false // "not safe for concurrent use": one caller at a time
	}
	return thread{key: fn, label: "exported " + n.Obj().Name() + "." + fn.Name(), exported: true}, true
}

// goTargets maps the package's functions and methods that a go statement
// starts (go s.pump(), go run(ctx)) to the first such statement.
func (r *inference) goTargets() map[*types.Func]token.Pos {
	if r.gos != nil {
		return r.gos
	}
	r.gos = map[*types.Func]token.Pos{}
	r.goCounts = map[*types.Func]int{}
	for _, file := range r.pass.Files {
		if strings.HasSuffix(r.pass.Fset.File(file.Pos()).Name(), "_test.go") {
			continue // a test's goroutines are not the package's threads
		}
		ast.Inspect(file, func(n ast.Node) bool {
			g, ok := n.(*ast.GoStmt)
			if !ok {
				return true
			}
			fn := typeutil.StaticCallee(r.pass.TypesInfo, g.Call)
			if fn == nil || fn.Pkg() != r.pass.Pkg {
				return true
			}
			fn = fn.Origin()
			r.goCounts[fn]++
			if old, ok := r.gos[fn]; !ok || srcpos.Less(r.pass.Fset, g.Pos(), old) {
				r.gos[fn] = g.Pos()
			}
			return true
		})
	}
	return r.gos
}

// lockSet is the locks held at an access, by typedLock: in the function's
// own state and at its entry (what every caller holds).
func (r *inference) lockSet(a *lockstate.Access) map[string]lockstate.Mode {
	if h, ok := r.lockSets[a]; ok {
		return h
	}
	h := heldTyped(a.State)
	if f := r.funcOf[a]; f != nil {
		for k, m := range r.entryLocks(f, 0) {
			if !h[k].Held() {
				h[k] = m
			}
		}
	}
	r.lockSets[a] = h
	return h
}

// lockedHere reports whether a lock is held at an access by the code
// itself: in its function's own state, or at the entry of an unexported
// function. What the package's callers of an exported method hold
// excludes a race there, but says nothing of the author treating the
// field as shared: callers outside the package are not seen.
func (r *inference) lockedHere(a *lockstate.Access) bool {
	if len(heldTyped(a.State)) > 0 {
		return true
	}
	f := r.funcOf[a]
	return f != nil && f.Obj != nil && !f.Obj.Exported() && len(r.entryLocks(f, 0)) > 0
}

// excludes reports whether a lock is held at both accesses, exclusively at
// one of them.
func excludes(x, y map[string]lockstate.Mode) bool {
	for k, m := range x {
		if n := y[k]; m.Held() && n.Held() && (m == lockstate.Exclusive || n == lockstate.Exclusive) {
			return true
		}
	}
	return false
}

// racePair is an access with no lock and the access it races with.
type racePair struct {
	miss, other     *lockstate.Access
	missTh, otherTh thread
	otherLocks      map[string]lockstate.Mode
}

// races reports the accesses of v, with no lock held, that race with an
// access of v in another thread.
func (r *inference) races(v *types.Var, accs []*lockstate.Access) {
	if !written(accs) || r.ls.Dirs.Documented(v) {
		return // read-only, or its comment describes a protocol not modelled here
	}
	owner := ownerStruct(r.pass, accs[0])
	if owner == nil {
		return
	}
	var ps []placed
	anyLocked := false
	for _, a := range accs {
		f := r.funcOf[a]
		if f == nil || !r.onOwnObject(f, a, owner) {
			continue
		}
		th, ok := r.threadOf(f)
		if !ok {
			th, ok = r.starterThread(f, a)
		}
		if !ok {
			continue
		}
		ps = append(ps, placed{a, th})
		if r.lockedHere(a) {
			anyLocked = true
		}
	}
	if !anyLocked {
		return // never locked: nothing says the author treats it as shared
	}
	var pairs []racePair
	for _, m := range ps {
		if len(r.lockSet(m.a)) > 0 || !r.atEntry(m.a, m.th) || r.addressToHelper(m.a) || r.afterClose(m.a, accs) {
			continue
		}
		if best := r.partner(m, ps); best != nil {
			pairs = append(pairs, racePair{miss: m.a, other: best.a, missTh: m.th, otherTh: best.th, otherLocks: r.lockSet(best.a)})
		}
	}
	r.reportRaces(pairs)
}

// placed is an access with its thread.
type placed struct {
	a  *lockstate.Access
	th thread
}

// partner returns the access of ps that the unlocked access m races with,
// preferring one that holds a lock (it names the lock to take), or nil.
func (r *inference) partner(m placed, ps []placed) *placed {
	plainWrite := func(a *lockstate.Access) bool { return a.Write && !a.Atomic }
	var best *placed
	for i := range ps {
		o := &ps[i]
		if o.a == m.a || o.th.key == m.th.key || len(r.lockSet(o.a)) == 0 || r.inTest(o.a) || plainWrite(o.a) && !r.directWrite(o.a) && !plainWrite(m.a) {
			continue // the partner holds a lock, in the package's own code
		}
		// After the go statement, against a goroutine the function
		// started (its closure, or a method it starts).
		known := m.th.starter && o.th.goroutine && m.th.decl.Pos() <= o.th.start && o.th.start < m.th.decl.End()
		switch {
		case !known && (m.th.starter || !m.th.exported && !o.th.exported):
			// Two goroutines, or helpers of them, or a starter and code
			// other than its goroutine (its object is not returned yet):
			// nothing says they overlap.
			continue
		case r.explained(o.a, ""):
			continue // the writer's doc states when it runs ("must be called before Serve")
		case r.beforeStart(o.a, m.th):
			continue // the go statement orders it before the goroutine
		case known:
			if !plainWrite(m.a) && !plainWrite(o.a) {
				continue
			}
		case m.a.Write || !plainWrite(o.a) || !r.directWrite(o.a):
			// Elsewhere only an unlocked read of what is written under
			// a lock: an unlocked write (Start, Init, SetX) is mostly
			// setup before the object is shared.
			continue
		}
		if excludes(r.lockSet(m.a), r.lockSet(o.a)) || r.disjointParts(m.a, o.a) || r.closedBefore(o.a, m.a) {
			continue // the same lock, other memory, or a close orders them
		}
		if best == nil || len(r.lockSet(best.a)) == 0 && len(r.lockSet(o.a)) > 0 {
			best = o
		}
	}
	return best
}

// reportRaces reports a field's racing accesses as one finding, at the
// first not covered by //guard:ignore or an explaining comment.
func (r *inference) reportRaces(pairs []racePair) {
	var kept []racePair
	seen := map[token.Pos]bool{}
	for _, p := range pairs {
		a := p.miss
		if seen[a.Pos] || r.rep.Ignored(a.Pos) || r.explained(a, "") || r.orderedByAtomic(a) {
			continue
		}
		seen[a.Pos] = true
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return
	}
	sort.Slice(kept, func(i, j int) bool { return srcpos.Less(r.pass.Fset, kept[i].miss.Pos, kept[j].miss.Pos) })
	p := kept[0]
	verb := func(a *lockstate.Access) string {
		if a.Write {
			return "written"
		}
		return "read"
	}
	lock, fix := r.lockToTake(p)
	text := fmt.Sprintf("%s is %s here with no lock held (in %s), and %s at %s with %s (in %s); the two can run at once: %s, or if this access is safe, say why with //guard:ignore",
		types.ExprString(p.miss.Node), verb(p.miss), p.missTh.label, verb(p.other), r.site(p.other.Pos), lock, p.otherTh.label, fix)
	var related []analysis.RelatedInformation
	if n := len(kept) - 1; n > 0 {
		var where []string
		for i, q := range kept[1:] {
			if i == 3 {
				where = append(where, "...")
				break
			}
			where = append(where, r.site(q.miss.Pos))
		}
		text += fmt.Sprintf(" (and at %d other %s with no lock: %s)", n, plural(n, "site", "sites"), strings.Join(where, ", "))
		for _, q := range kept[1:] {
			related = append(related, analysis.RelatedInformation{Pos: q.miss.Pos, Message: fmt.Sprintf("%s %s here with no lock held (in %s)", types.ExprString(q.miss.Node), verb(q.miss), q.missTh.label)})
		}
	}
	related = append(related, analysis.RelatedInformation{Pos: p.other.Pos, Message: fmt.Sprintf("%s %s here with %s (in %s)", types.ExprString(p.other.Node), verb(p.other), lock, p.otherTh.label)})
	r.emit(p.miss.Node, analysis.Diagnostic{Pos: p.miss.Pos, Message: text, Related: related})
}

// lockToTake names the lock the partner holds, as the miss reaches it
// when it is a lock of the same object (s.mu), and says what to do.
func (r *inference) lockToTake(p racePair) (held, fix string) {
	if len(p.otherLocks) == 0 {
		return "no lock held either", "guard both with one lock (or make the field atomic)"
	}
	paths := p.other.State.Held()
	if len(paths) > 0 {
		name := paths[0].String()
		if se, ok := p.miss.Node.(*ast.SelectorExpr); ok && p.other.Base.Valid() {
			for _, path := range paths {
				if rest, ok := strings.CutPrefix(path.String(), p.other.Base.String()+"."); ok {
					name = types.ExprString(se.X) + "." + rest
					break
				}
			}
		}
		return paths[0].String() + " held", "lock " + name + " here too"
	}
	return "the lock its callers hold", "take the lock its callers hold here too"
}

// disjointParts reports whether two accesses of a struct-valued field
// reach different parts of it: a read of b.meta.ULID and a write of
// b.meta.Stats.NumTombstones touch different memory and cannot race,
// while either races with a copy of the whole b.meta. A method called on
// the part (c.Config.setSASL(uri), pointer receiver) reaches the fields
// its body selects from its receiver, when that is known (touchedBy).
func (r *inference) disjointParts(a, b *lockstate.Access) bool {
	pa, sa := r.partPath(a)
	pb, sb := r.partPath(b)
	for i := 0; ; i++ {
		switch {
		case i < len(pa) && i < len(pb):
			if pa[i] != pb[i] {
				return true
			}
			continue
		case i < len(pb) && sa != nil:
			return !sa[pb[i]] // a's method, against b's field
		case i < len(pa) && sb != nil:
			return !sb[pa[i]]
		case sa != nil && sb != nil:
			for f := range sa {
				if sb[f] {
					return false
				}
			}
			return true
		}
		return false // one is the whole of the other's part
	}
}

// partPath is the chain of fields an access selects inside the field's
// value, as long as each step stays in the same memory (a field of a
// struct value, not through a pointer): [Stats NumTombstones] for
// b.meta.Stats.NumTombstones; nil for b.meta itself. When the chain ends
// in a method called on the part, methodFields is what that method
// reaches of it (nil when not known, or no method).
func (r *inference) partPath(a *lockstate.Access) (out []*types.Var, methodFields fieldSet) {
	file := r.fileOf(a.Node.Pos())
	if file == nil {
		return nil, nil
	}
	path, _ := astutil.PathEnclosingInterval(file, a.Node.Pos(), a.Node.End())
	var child ast.Expr
	for _, n := range path {
		e, ok := n.(ast.Expr)
		if !ok {
			break
		}
		if child == nil {
			if n == a.Node {
				child = e
			}
			continue
		}
		if p, ok := e.(*ast.ParenExpr); ok && p.X == child {
			child = e
			continue
		}
		se, ok := e.(*ast.SelectorExpr)
		if !ok || se.X != child {
			break
		}
		if _, isStruct := r.pass.TypesInfo.TypeOf(child).Underlying().(*types.Struct); !isStruct {
			break
		}
		sel := r.pass.TypesInfo.Selections[se]
		if sel != nil && sel.Kind() == types.MethodVal && len(sel.Index()) == 1 {
			if m, ok := sel.Obj().(*types.Func); ok {
				return out, r.ctx.touchedBy(m)
			}
		}
		if sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() {
			break
		}
		out = append(out, sel.Obj().(*types.Var))
		child = se
	}
	return out, nil
}
