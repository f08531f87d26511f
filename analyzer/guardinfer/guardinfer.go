package guardinfer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the guardinfer rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run})

// Category is the diagnostic category of this rule.
const Category = "guardinfer"

func run(p *rule.Pass) {
	pass, ls := p.Pass, p.Engine
	cfg := ls.Dirs.Config
	if !cfg.Infer() {
		reserveIgnores(pass, ls.Dirs, p.Report)
		return
	}
	r := &inference{pass: pass, ls: ls, rep: p.Report, suggest: cfg.Suggest(), ctx: newContexts(pass.TypesInfo, ls.Effects), loaders: map[*types.Func]bool{}, barriers: map[*types.Func]bool{}}
	r.ctx.declOf = r.declOf
	r.minScore, r.ratio = cfg.InferThreshold()
	r.globals = locks.PackageLocks(pass.Pkg)
	r.explainOn = cfg.Explain()
	suggest := r.suggest
	for _, v := range r.gather() {
		accs := r.byField[v]
		if g := ls.Dirs.Prose(v); g != nil {
			r.checkProse(v, g, accs)
			continue
		}
		if !suggest && locks.HasLockField(ownerStruct(pass, accs[0])) {
			r.atomicCheck(v, accs) // on lock-free structs it found nothing real (docs)
		}
		if !r.inferLock(v, accs) && !suggest {
			r.races(v, accs)
		}
	}
	r.flushFindings()
	if suggest {
		r.suggestLockedContracts()
	}
}

// inference is guard inference over one package.
type inference struct {
	pass *analysis.Pass
	ls   *lockstate.Result
	rep  *report.Reporter
	// suggest reports directives to add instead of accesses; minScore and
	// ratio are the evidence a guard needs (config.Config).
	suggest   bool
	explainOn bool // -config.infer.explain
	minScore  int
	ratio     float64
	// globals are the package's package-level locks, by name: a field
	// may be guarded by one of them instead of a lock of its own struct.
	globals []*types.Var
	byField map[*types.Var][]*lockstate.Access
	// inTests are the accesses of test files made while a goroutine the
	// test started with the object runs: checked against the guard the
	// package's own code shows, never evidence for it.
	inTests map[*types.Var][]*lockstate.Access
	funcOf  map[*lockstate.Access]*lockstate.Func
	// callers holds, per unexported method, its call sites; refs counts
	// every reference to it (calls and method values).
	callers map[*types.Func][]callSite
	refs    map[*types.Func]int
	calls   map[*types.Func]int           // distinct calls among callers
	memo    summaries.Verdicts[callerKey] // held at every call
	// entries memoises entryLocks; threads, gos and lockSets memoise
	// what races needs (races.go).
	entries map[*types.Func]map[string]lockstate.Mode
	// goEntries memoises goEntryLocks, by goroutine literal.
	goEntries map[*ast.FuncLit]map[string]lockstate.Mode
	threads   map[*types.Func]thread
	reached   map[*types.Func]bool // memoises reachedConcurrently
	gos       map[*types.Func]token.Pos
	goCounts  map[*types.Func]int // go statements starting each of gos
	// handedAddrs are the operands x.f of &x.f handed to a function of
	// the package (addressToHelper).
	handedAddrs map[ast.Expr]bool
	lockSets    map[*lockstate.Access]map[string]lockstate.Mode
	// ctx says where an object allocated in a function is still private
	// to it (context.go).
	ctx *contexts
	// loaders memoises which methods load their receiver's state
	// atomically (ordered.go).
	loaders map[*types.Func]bool
	// barriers memoises barrierCall: double-checked initialisers.
	barriers map[*types.Func]bool
	// typeDocs are the package's type docs by type name (typeDocRunsFirst).
	typeDocs map[string]string
	// findings wait for flushFindings, which drops a finding on an
	// expression that another finding's access contains.
	findings []finding
	// initOnly are the init helpers: methods that run only before their
	// receiver is shared (initHelpers).
	initOnly map[*types.Func]bool
	// exposed are the package's types code outside it can reach
	// (internalType).
	exposed map[*types.Named]bool
	// declFuncs indexes the records of the package's declared functions
	// (declFunc).
	declFuncs map[*types.Func]*lockstate.Func
	// decls indexes the package's function declarations (declOf).
	decls map[*types.Func]*ast.FuncDecl
	// goStarts and spawns memoise heldByStarter's lookups (joined.go).
	goStarts map[*ast.FuncLit]goStart
	spawns   map[*ast.FuncDecl][]*goroutines.Body
}

type callSite struct {
	fn   *lockstate.Func
	call *lockstate.Call
	// arg is, for a function named as the call's argument and run in
	// place by the callee (Call.InPlace), that argument's index; -1 for
	// the call of the function itself.
	arg int
}

// recv returns the receiver the site calls its method on: x of x.m(...),
// or of the method value x.m handed to a callee that calls it in place.
func (s callSite) recv() (ast.Expr, bool) {
	fun := s.call.Node.Fun
	if s.arg >= 0 {
		fun = s.call.Node.Args[s.arg]
	}
	se, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	return se.X, true
}

// args returns the arguments of the site's call of the function, or nil
// for a function named and called by another (its arguments are not here).
func (s callSite) args() []ast.Expr {
	if s.arg >= 0 {
		return nil
	}
	return s.call.Node.Args
}

type callerKey struct {
	fn   *types.Func
	sel  string
	docs bool // callers documented as holding the lock count as holding it
}

// gather groups the accesses that are evidence by field, and returns the
// fields in source order. Left out: objects not yet published, init
// helpers, and closures whose caller (and so its locks) is unknown.
func (r *inference) gather() []*types.Var {
	r.byField = map[*types.Var][]*lockstate.Access{}
	r.funcOf = map[*lockstate.Access]*lockstate.Func{}
	r.indexCallers()
	initOnly := r.initHelpers()
	r.initOnly = initOnly
	onceLits := r.onceClosures()
	var fields []*types.Var
	for _, f := range r.ls.Funcs {
		if f.Context == lockstate.Escaping {
			continue // stored or passed on: runs with locks we cannot see
		}
		if f.Lit != nil && onceLits[f.Lit] {
			continue // once.Do(func() {...}): initialisation, like an init helper
		}
		if strings.HasSuffix(r.pass.Fset.File(f.Decl.Pos()).Name(), "_test.go") {
			// Tests inspect state when nothing else runs: not evidence,
			// and targets only where they run with their own goroutines.
			r.testTargets(f)
			continue
		}
		recv := f.Obj.Type().(*types.Signature).Recv()
		for _, acc := range f.Candidates {
			v := acc.Var.Origin()
			if v.Pkg() != r.pass.Pkg || acc.Fresh || !acc.Base.Valid() || ignoredField(v) {
				continue
			}
			if se, ok := acc.Node.(*ast.SelectorExpr); ok && r.ctx.private(f, accessRoot(r.pass.TypesInfo, se), firstField(r.pass.TypesInfo, se, accessRoot(r.pass.TypesInfo, se)), acc.Pos) {
				continue // before the object is shared, or after its goroutines are joined
			}
			if initOnly[f.Obj] && recv != nil && acc.Base.Root == types.Object(recv) {
				continue // an init helper: runs before the object is shared
			}
			if _, seen := r.byField[v]; !seen {
				fields = append(fields, v)
			}
			r.byField[v] = append(r.byField[v], acc)
			r.funcOf[acc] = f
		}
	}
	sort.Slice(fields, func(i, j int) bool { return srcpos.Less(r.pass.Fset, fields[i].Pos(), fields[j].Pos()) })
	return fields
}

// testTargets records the accesses of a test function made while a
// goroutine it started with the same object may run.
func (r *inference) testTargets(f *lockstate.Func) {
	if r.suggest {
		return
	}
	for _, acc := range f.Candidates {
		v := acc.Var.Origin()
		if v.Pkg() != r.pass.Pkg || acc.Fresh || !acc.Base.Valid() || ignoredField(v) {
			continue
		}
		se, ok := acc.Node.(*ast.SelectorExpr)
		if !ok || !r.ctx.withOwnGoroutine(f, accessRoot(r.pass.TypesInfo, se), firstField(r.pass.TypesInfo, se, accessRoot(r.pass.TypesInfo, se)), acc.Pos) {
			continue
		}
		if r.inTests == nil {
			r.inTests = map[*types.Var][]*lockstate.Access{}
		}
		r.inTests[v] = append(r.inTests[v], acc)
		r.funcOf[acc] = f
	}
}

func ignoredField(v *types.Var) bool {
	switch v.Type().Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true // channel operations synchronise; func fields are usually set once
	}
	if lock, _ := locks.IsLock(v.Type()); lock {
		return true
	}
	// sync and sync/atomic values synchronise themselves, also behind a
	// pointer or in an array (children [16]atomic.Pointer[node]).
	t := v.Type()
	for {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Array:
			t = u.Elem()
			continue
		}
		break
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if p := n.Obj().Pkg().Path(); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	return selfSync(v.Type(), 0)
}

// selfSync reports whether t, a struct value (or an array of them), holds
// a lock or a sync/atomic value, directly or in a struct-valued field: a
// type that synchronises itself (a goroutine tracker, a wrapper around
// atomic.Value). Its methods take the field's address; none of them is a
// plain or atomic access of the field, whatever its body does.
func selfSync(t types.Type, depth int) bool {
	for {
		a, ok := t.Underlying().(*types.Array)
		if !ok {
			break
		}
		t = a.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if lock, _ := locks.IsLock(ft); lock {
			return true
		}
		if n, ok := types.Unalias(ft).(*types.Named); ok && n.Obj().Pkg() != nil {
			if p := n.Obj().Pkg().Path(); p == "sync" || p == "sync/atomic" {
				return true
			}
		}
		if selfSync(ft, depth+1) {
			return true
		}
	}
	return false
}

// lockPath is the path from a field's struct to one of its lock fields.
func lockPath(pass *analysis.Pass, owner *types.Struct, name string) []string {
	for i := 0; i < owner.NumFields(); i++ {
		if f := owner.Field(i); f.Name() == name {
			return append([]string{name}, locks.EmbeddedPath(f.Type(), pass.Pkg)...)
		}
	}
	return nil
}

// heldAt reports whether the lock at path (from the field's struct) is
// held at an access: in the function's own lock state, or because every
// caller of the method it is in holds it.
func (r *inference) heldAt(a *lockstate.Access, ref guardRef) bool {
	lock := r.lockOf(a, ref)
	if !lock.Valid() {
		return false
	}
	if a.State.Lock(lock).Mode.Held() {
		return true
	}
	f := r.funcOf[a]
	return f != nil && r.heldByCallers(f, lock, 0, false)
}

// site is file:line, for evidence in messages.
func (r *inference) site(pos token.Pos) string {
	p := r.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// lockAt names lock as seen at an access: c.mu for an access c.f.
func lockAt(a *lockstate.Access, lock string) string {
	if sel, ok := a.Node.(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X) + "." + lock
	}
	return lock
}

// guardRef is a lock that may guard a field: one of the field's struct's
// own lock fields (path from the struct), a package-level lock, or a lock
// field of the parent struct whose field the field's object is reached
// through (path from the parent).
type guardRef struct {
	path   []string
	global *types.Var
	parent *types.Struct
}

// lockOf is the lock as an access reaches it; invalid if the access does
// not reach that lock (not through a field of the parent struct).
func (r *inference) lockOf(a *lockstate.Access, g guardRef) lockpath.Path {
	switch {
	case g.global != nil:
		return lockpath.Path{Root: g.global}
	case g.parent != nil:
		p, ok := r.parentOf(a)
		if !ok || p.st != g.parent {
			return lockpath.Path{}
		}
		return p.base.Field(g.path...)
	}
	return a.Base.Field(g.path...)
}

// shown names the lock as seen at an access: c.mu, c.mu for an access
// c.stats.n guarded by its parent's lock, or a package-level mu.
func (r *inference) shown(e evidence, a *lockstate.Access) string {
	switch {
	case e.ref.global != nil:
		return e.lock
	case e.ref.parent != nil:
		if p, ok := r.parentOf(a); ok {
			return types.ExprString(p.expr) + "." + e.lock
		}
	}
	return lockAt(a, e.lock)
}

// parent is the object whose field holds the object of a field access
// x.p.f: x's struct, the path to x, and x as written.
type parent struct {
	st   *types.Struct
	base lockpath.Path
	expr ast.Expr
}

// parentOf returns the parent of a field access x.p.f, when p is a field
// of a struct with a lock (lockstate.ParentHasLock).
func (r *inference) parentOf(a *lockstate.Access) (parent, bool) {
	se, ok := a.Node.(*ast.SelectorExpr)
	f := r.funcOf[a]
	if !ok || f == nil || !locks.ParentHasLock(r.pass.TypesInfo, se) {
		return parent{}, false
	}
	in := ast.Unparen(se.X).(*ast.SelectorExpr)
	sel := r.pass.TypesInfo.Selections[in]
	st := holderStruct(sel)
	if st == nil {
		return parent{}, false
	}
	base := f.Resolver.Of(in.X)
	if !base.Valid() {
		return parent{}, false
	}
	return parent{st: st, base: base.Field(locks.ImplicitFields(sel)...), expr: in.X}, true
}

// inferLock reports accesses missing the lock that guards the field at
// nearly every other site (or, with -suggest, the directive to add). It
// returns false when the evidence shows no guard, leaving the field to
// races.
func (r *inference) inferLock(v *types.Var, accs []*lockstate.Access) bool {
	if !r.writtenDirectly(accs) {
		return true // read-only after construction: nothing to race with
	}
	owner := ownerStruct(r.pass, accs[0])
	if owner == nil {
		return true
	}
	best := r.bestGuard(owner, accs)
	if best.lock == "" {
		return false
	}
	if r.score(accs, best.ref).points() < r.minScore {
		return false // a lock held here and there, not a guard the code shows
	}
	if float64(best.held) < r.ratio*float64(len(accs)) {
		return false // too many accesses do without it
	}
	shown := func(a *lockstate.Access) string { return r.shown(best, a) }
	if r.confined(accs) {
		return true // one goroutine's own
	}
	best.misses = r.racing(best.misses, accs, owner)
	best.misses = r.inThreads(best.misses)
	if best.ref.parent != nil {
		// No directive on the field can name another struct's lock.
		if r.suggest {
			return true
		}
		r.reportOnce(best.misses, nil, best.lock, shown, func(a *lockstate.Access) string {
			lock := shown(a)
			return fmt.Sprintf(
				"%s is accessed with %s held at %d of %d sites (e.g. %s); here it is not: lock %s here, or if this access is safe, say why with //guard:ignore",
				types.ExprString(a.Node), lock, best.held, len(accs), r.site(best.example), lock) + r.explain(accs, best.ref, a, true)
		})
		return true
	}
	fix := addDirective(r.pass, v, best.lock)
	if r.suggest {
		r.suggestField(v, fix, fmt.Sprintf("%s is held at %d of %d accesses (e.g. %s)", shown(accs[0]), best.held, len(accs), r.site(best.example)), best)
		return true
	}
	for _, a := range r.racing(r.inTests[v], accs, owner) {
		if !r.heldAt(a, best.ref) {
			best.misses = append(best.misses, a)
		}
	}
	r.reportOnce(best.misses, fix, best.lock, shown, func(a *lockstate.Access) string {
		lock := shown(a)
		return fmt.Sprintf(
			"%s is accessed with %s held at %d of %d sites (e.g. %s); here it is not: lock %s here, or if this access is safe, say why with //guard:ignore; //guard:by %s on the field makes guardedby check it",
			types.ExprString(a.Node), lock, best.held, len(accs), r.site(best.example), lock, best.lock) + r.explain(accs, best.ref, a, true)
	})
	return true
}

// bestGuard returns the evidence for the lock held at most of accs
// among the locks of the field's own struct, the package-level locks and
// the locks of the parent objects the field's object is reached through.
func (r *inference) bestGuard(owner *types.Struct, accs []*lockstate.Access) evidence {
	var best evidence
	for _, c := range r.candidates(owner, accs) {
		if e := r.count(accs, c.name, c.ref); e.held > best.held {
			best = e
		}
	}
	return best
}

// reportOnce reports a field's accesses that miss its guard as one
// finding, at the first of them not covered by //guard:ignore, listing the
// others: one inferred guard, one bug to fix. lock is the guard's name
// ("" for none), which comments that explain an access may name; without
// says what a site lacks (c.mu as the site reaches it); msg words the
// finding at an access.
func (r *inference) reportOnce(misses []*lockstate.Access, fix *analysis.SuggestedFix, lock string, without, msg func(*lockstate.Access) string) {
	var sites []*lockstate.Access
	seen := map[token.Pos]bool{}
	for _, a := range misses {
		if seen[a.Pos] || r.rep.Ignored(a.Pos) || r.explained(a, lock) || r.orderedByAtomic(a) {
			continue
		}
		seen[a.Pos] = true
		sites = append(sites, a)
	}
	if len(sites) == 0 {
		return
	}
	sort.Slice(sites, func(i, j int) bool { return srcpos.Less(r.pass.Fset, sites[i].Pos, sites[j].Pos) })
	first := sites[0]
	text := msg(first)
	var related []analysis.RelatedInformation
	if n := len(sites) - 1; n > 0 {
		var where []string
		for i, a := range sites[1:] {
			if i == 3 {
				where = append(where, "...")
				break
			}
			where = append(where, r.site(a.Pos))
		}
		text += fmt.Sprintf(" (and at %d other %s without it: %s)", n, plural(n, "site", "sites"), strings.Join(where, ", "))
		for _, a := range sites[1:] {
			related = append(related, analysis.RelatedInformation{Pos: a.Pos, Message: types.ExprString(a.Node) + " accessed here without " + without(a)})
		}
	}
	d := analysis.Diagnostic{Pos: first.Pos, Message: text, Related: related}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	r.emit(first.Node, d)
}

// written reports whether any of the accesses is a plain write.
func written(accs []*lockstate.Access) bool {
	for _, a := range accs {
		if a.Write && !a.Atomic {
			return true
		}
	}
	return false
}

// writtenDirectly reports whether any of the accesses is a plain write
// of the field itself (or of an element or part of its value): x.f.g = v
// through the pointer x.f holds writes g, and only reads x.f.
func (r *inference) writtenDirectly(accs []*lockstate.Access) bool {
	for _, a := range accs {
		if a.Write && !a.Atomic && r.directWrite(a) {
			return true
		}
	}
	return false
}

// notComparisons drops the accesses that only compare the field's value
// (if db.stats != nil { db.statlock.Lock(); ... }): for a field nothing
// writes after construction, such a read cannot race with the writes made
// through it.
func (r *inference) notComparisons(misses []*lockstate.Access) []*lockstate.Access {
	out := misses[:0:0]
	for _, a := range misses {
		if a.Write || !r.compared(a) {
			out = append(out, a)
		}
	}
	return out
}

// compared reports whether an access is an operand of == or !=.
func (r *inference) compared(a *lockstate.Access) bool {
	file := r.fileOf(a.Node.Pos())
	if file == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, a.Node.Pos(), a.Node.End())
	var child ast.Node
	for _, n := range path {
		if child == nil {
			if n == a.Node {
				child = n
			}
			continue
		}
		switch n := n.(type) {
		case *ast.ParenExpr:
			child = n
		case *ast.BinaryExpr:
			return (n.Op == token.EQL || n.Op == token.NEQ) && (n.X == child || n.Y == child)
		default:
			return false
		}
	}
	return false
}

// checkProse checks a field against the lock its comment names.
func (r *inference) checkProse(v *types.Var, g *directives.ProseGuard, accs []*lockstate.Access) {
	if len(accs) == 0 {
		return
	}
	owner := ownerStruct(r.pass, accs[0])
	if owner == nil {
		return
	}
	ref := guardRef{path: lockPath(r.pass, owner, g.Lock)}
	if ref.path == nil {
		return
	}
	if r.confined(accs) {
		return // one goroutine's own
	}
	if !written(accs) {
		return // set before publication, read-only since: nothing to race with
	}
	e := r.count(accs, g.Lock, ref)
	fix := addDirective(r.pass, v, g.Lock)
	quote := fmt.Sprintf("%q at %s", g.Quote, r.site(g.Comment))
	if r.suggest {
		r.suggestField(v, fix, fmt.Sprintf("its comment says %s; %s is held at %d of %d accesses", quote, lockAt(accs[0], g.Lock), e.held, len(accs)), e)
		return
	}
	e.misses = r.racing(e.misses, accs, owner)
	for _, a := range r.racing(r.inTests[v], accs, owner) {
		if !r.heldAt(a, ref) {
			e.misses = append(e.misses, a)
		}
	}
	if !r.writtenDirectly(accs) {
		// The lock guards what the pointer leads to; the pointer itself
		// is set before the object is shared and never again.
		e.misses = r.notComparisons(e.misses)
	}
	r.reportOnce(e.misses, fix, g.Lock, func(a *lockstate.Access) string { return lockAt(a, g.Lock) }, func(a *lockstate.Access) string {
		lock := lockAt(a, g.Lock)
		return fmt.Sprintf(
			"%s is documented as guarded by %s (%s), but %s is not held here: lock %s here, or if this access is safe, say why with //guard:ignore; //guard:by %s on the field makes guardedby check it",
			types.ExprString(a.Node), g.Lock, quote, lock, lock, g.Lock) + r.explain(accs, ref, a, false)
	})
}

// maxPoints caps each kind of evidence.
const maxPoints = 3

// atomicCheck reports plain accesses to a field that other sites update
// with sync/atomic.
func (r *inference) atomicCheck(v *types.Var, accs []*lockstate.Access) {
	var atomicSite token.Pos
	for _, a := range accs {
		if a.Atomic {
			atomicSite = a.Pos
			break
		}
	}
	if !atomicSite.IsValid() {
		return
	}
	var plain []*lockstate.Access
	for _, a := range accs {
		if a.Atomic || (!a.Write && len(a.State.Held()) > 0) {
			continue // writers lock and store atomically; plain reads under the lock are fine
		}
		plain = append(plain, a)
	}
	// A plain access conflicts with every write, atomic ones included; a
	// lock held at both (the caller's, for a helper whose callers all hold
	// it) still orders them.
	plain = r.racingBy(plain, accs, ownerStruct(r.pass, accs[0]), func(a, b *lockstate.Access) bool { return a.Write || b.Write })
	r.reportOnce(plain, nil, "", func(*lockstate.Access) string { return "sync/atomic" }, func(a *lockstate.Access) string {
		return fmt.Sprintf(
			"%s is accessed with sync/atomic elsewhere (e.g. %s) but plainly here; use atomic loads and stores at every site, or an atomic type such as atomic.Int64",
			types.ExprString(a.Node), r.site(atomicSite))
	})
}

// ownerStruct is the struct type that declares the accessed field.
func ownerStruct(pass *analysis.Pass, a *lockstate.Access) *types.Struct {
	se, ok := a.Node.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := pass.TypesInfo.Selections[se]
	if sel == nil {
		return nil
	}
	return holderStruct(sel)
}

// holderStruct is the struct type that declares a selected field.
func holderStruct(sel *types.Selection) *types.Struct {
	if h := astq.Holder(sel); h != nil {
		st, _ := astq.StructOf(h)
		return st
	}
	return nil
}
