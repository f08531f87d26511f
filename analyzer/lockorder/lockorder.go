package lockorder

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the lockorder rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run,
	Facts: []analysis.Fact{(*Acquired)(nil), (*Edges)(nil)}})

// Category is the diagnostic category of this rule.
const Category = "lockorder"

// Acquired lists the locks a function takes at some point, itself or in
// its callees, even if it releases them again: instances rooted at its
// receiver, parameters or package-level variables, and classes.
type Acquired struct {
	Refs    []directives.LockRef
	Classes []string // class keys
	Shown   []string // class display names, parallel to Classes
	// RefReleased and ClassReleased, parallel to Refs and Classes (nil when
	// all are empty), list the caller's locks the function had released
	// wherever it took that lock (a helper that steps out of its caller's
	// lock): the caller holds them, but not while the lock is taken, so
	// they are not ordered before it.
	RefReleased, ClassReleased [][]directives.LockRef
}

func (*Acquired) AFact() {}

func (a *Acquired) String() string {
	var parts []string
	with := func(s string, released [][]directives.LockRef, i int) string {
		if i < len(released) && len(released[i]) > 0 {
			var names []string
			for _, r := range released[i] {
				names = append(names, r.Text)
			}
			s += " (" + strings.Join(names, ", ") + " released)"
		}
		return s
	}
	for i, r := range a.Refs {
		parts = append(parts, with(r.Text, a.RefReleased, i))
	}
	for i, s := range a.Shown {
		parts = append(parts, with(s, a.ClassReleased, i))
	}
	return "acquires(" + strings.Join(parts, ", ") + ")"
}

// Edge says lock class To was acquired while From was held, at Site.
type Edge struct {
	From, To         string // class keys
	FromShow, ToShow string
	Site             string // file.go:line, for messages in other packages
}

// Edges is the package fact with the acquired-while-holding edges seen in
// a package.
type Edges struct{ List []Edge }

func (*Edges) AFact() {}

func (e *Edges) String() string {
	var parts []string
	for _, x := range e.List {
		parts = append(parts, x.FromShow+" -> "+x.ToShow)
	}
	return "edges(" + strings.Join(parts, ", ") + ")"
}

type checker struct {
	pass     *analysis.Pass
	ls       *lockstate.Result
	rep      *report.Reporter
	funcs    map[*types.Func][]*lockstate.Func // declaration -> its body and inline closures
	acquired *summaries.Memo[Acquired, *Acquired]
	edges    []localEdge
	// decrements caches which functions return a just-decremented count
	// (see lastref.go).
	decrements map[*types.Func]bool
}

type localEdge struct {
	Edge
	pos, heldPos token.Pos
	// heldInst and acqInst name the instances here (s.mu, s.room.mu), for
	// the message; acqInst is empty when only the class is known.
	heldInst, acqInst string
}

// instance says which instance of a lock class an edge's end is, when the
// local name says more than the class: " (s.room.mu)".
func instance(local, class string) string {
	if local == "" || local == class {
		return ""
	}
	return " (" + local + ")"
}

func run(p *rule.Pass) {
	pass, ls := p.Pass, p.Engine
	c := &checker{pass: pass, ls: ls, rep: p.Report,
		funcs: map[*types.Func][]*lockstate.Func{}, decrements: map[*types.Func]bool{}}
	c.acquired = summaries.New(pass, c.computeAcquired)
	if !ls.Dirs.Active() && !ls.Dirs.Config.UnannotatedOrder() {
		return
	}
	if !ls.Dirs.Full() && !ls.Dirs.Config.UnannotatedOrder() {
		c.rep.Silence() // facts for annotated importers, no reports here
	}
	c.funcs = ls.Bodies()
	for _, f := range ls.Funcs {
		c.check(f)
	}
	summaries.Export(pass, c.funcs, func(fn *types.Func) analysis.Fact {
		if a := c.acquiredOf(fn); a != nil && len(a.Classes)+len(a.Refs) > 0 {
			return a
		}
		return nil
	})
	c.cycles()
}

// acquisition is one lock taken in a function body, with the state there.
type acquisition struct {
	path      lockpath.Path // the instance, when known
	class     string
	shown     string
	pos       token.Pos
	state     *lockstate.State
	viaCallee string // the callee that takes it, if any
	released  bool   // this function released the lock before re-taking it here
	// without are locks held on entry (the caller's) that this function, or
	// the callee taking the lock, has released at this point.
	without []lockpath.Path
}

func (c *checker) acquisitions(f *lockstate.Func) []acquisition {
	var out []acquisition
	entryHeld := entryOf(f).PathsWhere(notNotHeld) // once per body, not per acquisition
	for _, op := range f.LockOps {
		if op.Op != locks.Lock && op.Op != locks.RLock {
			continue
		}
		key, shown, ok := lockpath.Class(op.Lock)
		if !ok {
			continue
		}
		out = append(out, acquisition{path: op.Lock, class: key, shown: shown, pos: op.Node.Pos(), state: op.State,
			released: retaken(f, op.Lock, op.Before), without: releasedHere(entryHeld, op.State)})
	}
	for _, call := range f.Calls {
		a := c.acquiredOf(call.Callee)
		if a == nil {
			continue
		}
		name := types.ExprString(call.Node.Fun)
		// A held lock the callee takes again is a self-deadlock at this
		// call (selfDeadlock reports it); the callee's other locks are no
		// order after it, and its own edge back to the same instance
		// closes no cycle between two goroutines: one bug, one report.
		here := append(releasedHere(entryHeld, call.State), c.retakenByCallee(f, call, a)...)
		without := func(released [][]directives.LockRef, i int) []lockpath.Path {
			out := here
			if i < len(released) {
				for _, ref := range released[i] {
					if p := f.RefAtCall(c.ls.Dirs, ref, call.Node, call.Callee); p.Valid() && !slices.Contains(out, p) {
						out = append(slices.Clip(out), p)
					}
				}
			}
			return out
		}
		for i, ref := range a.Refs {
			if p := f.RefAtCall(c.ls.Dirs, ref, call.Node, call.Callee); p.Valid() {
				if key, shown, ok := lockpath.Class(p); ok {
					w := without(a.RefReleased, i)
					out = append(out, acquisition{path: p, class: key, shown: shown, pos: call.Node.Pos(), state: call.State, viaCallee: name,
						released: slices.Contains(w, p), without: w})
				}
			}
		}
		for i, key := range a.Classes {
			out = append(out, acquisition{class: key, shown: a.Shown[i], pos: call.Node.Pos(), state: call.State, viaCallee: name,
				without: without(a.ClassReleased, i)})
		}
	}
	return out
}

// retaken reports whether a Lock takes back a lock this body released
// before it: released on every path here, or on some of them (the state is
// then not known, with the release as its site), as in
// if !same { s.mu.Unlock(); other.mu.Lock() } ... if !same { other.mu.Unlock(); s.mu.Lock() }.
// The caller's lock is given up first, so it is no self-deadlock.
func retaken(f *lockstate.Func, p lockpath.Path, before lockstate.LockVal) bool {
	switch {
	case before.Mode == lockstate.NotHeld:
		return true
	case before.Mode != lockstate.Unknown || before.Site == token.NoPos:
		return false
	}
	for _, op := range f.LockOps {
		if op.Lock == p && op.Op.Releases() && op.Node.Pos() == before.Site {
			return true
		}
	}
	return false
}

// releasedHere lists the locks not held in state s that were not known to
// be free on entry (entryHeld, the entry state's locks in any other mode):
// the caller's locks this function has released.
//
// The loop runs over entryHeld, usually a few locks, not over every lock
// the function has touched by s: a long function taking many locks stays
// linear.
func releasedHere(entryHeld []lockpath.Path, s *lockstate.State) []lockpath.Path {
	var out []lockpath.Path
	for _, p := range entryHeld {
		if s.Lock(p).Mode == lockstate.NotHeld {
			out = append(out, p)
		}
	}
	return out
}

func notNotHeld(v lockstate.LockVal) bool { return v.Mode != lockstate.NotHeld }

func entryOf(f *lockstate.Func) *lockstate.State {
	if f.Implied != nil {
		return f.Implied
	}
	return f.Entry
}

// acquiredOf summarises what fn locks, from its bodies in this package or
// from a fact. Recursion contributes nothing.
func (c *checker) acquiredOf(fn *types.Func) *Acquired { return c.acquired.Of(fn) }

// computeAcquired summarises a function of this package from its bodies.
func (c *checker) computeAcquired(fn *types.Func) *Acquired {
	bodies := c.funcs[fn]
	if len(bodies) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := directives.ParamIndex(sig)
	a := &Acquired{}
	seenRef, seenClass := map[string]int{}, map[string]int{}
	var refReleased, classReleased [][]directives.LockRef
	for _, body := range bodies {
		lastRef := c.lastRefOnly(body)
		for _, acq := range c.acquisitions(body) {
			if lastRef != nil && lastRef(acq.pos) {
				continue // only when a released count reached zero (see lastref.go)
			}
			// The caller's locks released here, as refs the caller can
			// resolve; a lock taken at several places keeps only those
			// released at all of them.
			var released []directives.LockRef
			for _, p := range acq.without {
				// Only the caller's: released here, or left as on entry
				// (a callee releases it). A lock this body took itself is
				// not the caller's.
				if v := acq.state.Lock(p); v.Mode != lockstate.NotHeld && v != body.Entry.Lock(p) {
					continue
				}
				if ref, ok := refOf(p, params, body); ok {
					released = append(released, ref)
				}
			}
			if acq.path.Valid() {
				if acq.released {
					continue // it gives the caller's lock up first (an RLock-to-Lock upgrade): no self-deadlock
				}
				if ref, ok := refOf(acq.path, params, body); ok {
					if i, seen := seenRef[ref.Text]; seen {
						refReleased[i] = intersectRefs(refReleased[i], released)
					} else {
						seenRef[ref.Text] = len(a.Refs)
						a.Refs = append(a.Refs, ref)
						refReleased = append(refReleased, released)
					}
					continue
				}
				if v, _ := acq.path.Root.(*types.Var); v != nil && !isGlobal(v) && !body.Resolver.Stable(v) {
					continue // c = c.parent: another instance than the caller's
				}
			}
			if i, seen := seenClass[acq.class]; seen {
				classReleased[i] = intersectRefs(classReleased[i], released)
			} else {
				seenClass[acq.class] = len(a.Classes)
				a.Classes = append(a.Classes, acq.class)
				a.Shown = append(a.Shown, acq.shown)
				classReleased = append(classReleased, released)
			}
		}
	}
	if anyRefs(refReleased) {
		a.RefReleased = refReleased
	}
	if anyRefs(classReleased) {
		a.ClassReleased = classReleased
	}
	return a
}

// refOf names a lock path rooted at a stable parameter or a package-level
// variable as a ref the caller can resolve.
func refOf(p lockpath.Path, params map[types.Object]int, body *lockstate.Func) (directives.LockRef, bool) {
	v, _ := p.Root.(*types.Var)
	if v == nil {
		return directives.LockRef{}, false
	}
	if isGlobal(v) {
		return directives.LockRef{Kind: directives.Global, PkgPath: v.Pkg().Path(), Name: v.Name(), Sel: p.Sel, Text: p.String()}, true
	}
	if i, ok := params[p.Root]; ok && body.Resolver.Stable(v) {
		return directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}, true
	}
	return directives.LockRef{}, false
}

func intersectRefs(a, b []directives.LockRef) []directives.LockRef {
	var out []directives.LockRef
	for _, r := range a {
		if slices.ContainsFunc(b, func(x directives.LockRef) bool { return x.Text == r.Text }) {
			out = append(out, r)
		}
	}
	return out
}

func anyRefs(lists [][]directives.LockRef) bool {
	for _, l := range lists {
		if len(l) > 0 {
			return true
		}
	}
	return false
}

// check reports self-deadlocks and order violations in one body and
// records its edges.
func (c *checker) check(f *lockstate.Func) {
	for _, op := range f.LockOps {
		if op.Op == locks.RLock && op.Before.Mode == lockstate.Shared {
			lock := types.ExprString(op.Node.Fun.(*ast.SelectorExpr).X)
			c.rep.Reportf(op.Node.Lparen, report.Related(op.Before.Site, lock+" read-locked here"),
				"%s.RLock() while %s is already read-locked; a recursive read lock deadlocks once a writer is waiting (sync.RWMutex docs): take the read lock once", lock, lock)
		}
	}
	for _, call := range f.Calls {
		c.selfDeadlock(f, call)
	}
	for _, acq := range c.acquisitions(f) {
		for _, held := range acq.state.Held() {
			if acq.path.Valid() && held == acq.path {
				continue // the same instance: a double lock, reported elsewhere
			}
			if insideHeld(acq.state, held) {
				continue // locked by its lock type's own Lock: the same lock
			}
			if slices.Contains(acq.without, held) {
				continue // the callee releases it before taking this lock
			}
			hkey, hshown, ok := lockpath.Class(held)
			if !ok || hkey == acq.class {
				continue
			}
			site := acq.state.Lock(held).Site
			e := localEdge{Edge: Edge{From: hkey, To: acq.class, FromShow: hshown, ToShow: acq.shown, Site: c.siteString(acq.pos)}, pos: acq.pos, heldPos: site,
				heldInst: held.Local(c.pass.Pkg)}
			if acq.path.Valid() {
				e.acqInst = acq.path.Local(c.pass.Pkg)
			}
			c.edges = append(c.edges, e)
			c.declared(acq, held, hkey, hshown, site)
		}
	}
}

// insideHeld reports whether p is a lock inside another held lock value
// that has a class of its own, taken at the same place: b.mu.mu when
// b.mu.Lock() locks it. Its order is that of b.mu (the same class, or an
// inner one ordered with it), so its edges would only repeat b.mu's and
// cost a cycle search each.
func insideHeld(s *lockstate.State, p lockpath.Path) bool {
	site := s.Lock(p).Site
	for _, q := range s.Held() {
		if q.Root == p.Root && strings.HasPrefix(p.Sel, q.Sel+".") && s.Lock(q).Site == site {
			if _, _, ok := lockpath.Class(q); ok {
				return true
			}
		}
	}
	return false
}

// declared reports acquiring a lock that a //guard:order puts before one
// already held.
func (c *checker) declared(acq acquisition, held lockpath.Path, hkey, hshown string, heldSite token.Pos) {
	for _, o := range c.ls.Dirs.Orders {
		ai, hi := index(o.Classes, acq.class), index(o.Classes, hkey)
		if ai < 0 || hi < 0 || ai > hi {
			continue
		}
		what := acq.shown
		if acq.viaCallee != "" {
			what += " (through " + acq.viaCallee + ")"
		}
		c.rep.Reportf(acq.pos, report.Related(heldSite, held.Local(c.pass.Pkg)+" locked here"),
			"lock order violation: %s acquired while %s is held, but //guard:order in %s puts %s first; take %s before %s, or release %s first",
			what, hshown, o.Where, acq.shown, acq.shown, hshown, hshown)
		return
	}
}

// ordered reports whether some //guard:order lists both classes.
func (c *checker) ordered(a, b string) bool {
	for _, o := range c.ls.Dirs.Orders {
		if index(o.Classes, a) >= 0 && index(o.Classes, b) >= 0 {
			return true
		}
	}
	return false
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// selfDeadlock reports a call to a function that locks an instance the
// caller already holds. A callee whose net effect is to acquire the lock,
// or whose declared contract excludes it, is left to guardedby, which
// reports it as a double lock or as the broken contract: one report.
func (c *checker) selfDeadlock(f *lockstate.Func, call *lockstate.Call) {
	a := c.acquiredOf(call.Callee)
	if a == nil {
		return
	}
	for _, p := range c.retakenByCallee(f, call, a) {
		v := call.State.Lock(p)
		shown := p.Local(c.pass.Pkg)
		c.rep.Reportf(call.Node.Lparen, report.Related(v.Site, shown+" locked here"),
			"call to %s locks %s, which is already held here; sync mutexes are not reentrant, so this deadlocks: release %s before the call, or call a variant that expects it held",
			types.ExprString(call.Node.Fun), shown, shown)
	}
}

// retakenByCallee lists the locks held at call that the callee takes
// again, as selfDeadlock reports them.
func (c *checker) retakenByCallee(f *lockstate.Func, call *lockstate.Call, a *Acquired) []lockpath.Path {
	var out []lockpath.Path
	for _, ref := range a.Refs {
		p := f.RefAtCall(c.ls.Dirs, ref, call.Node, call.Callee)
		if p.Valid() && call.State.Lock(p).Mode.Held() && !netAcquires(call, f, c.ls.Dirs, p) && !declaredExcludes(call, f, c.ls.Dirs, p) {
			out = append(out, p)
		}
	}
	return out
}

func netAcquires(call *lockstate.Call, f *lockstate.Func, dirs *directives.Result, p lockpath.Path) bool {
	for _, k := range []*directives.Contract{call.Contract, call.Effects} {
		if k == nil {
			continue
		}
		for _, ref := range append(append([]directives.LockRef{}, k.Acquires...), k.RAcquires...) {
			if f.RefAtCall(dirs, ref, call.Node, call.Callee) == p {
				return true
			}
		}
	}
	return false
}

// declaredExcludes reports whether the callee's declared contract says the
// caller must not hold p (//guard:excludes, +checklocksexclude).
func declaredExcludes(call *lockstate.Call, f *lockstate.Func, dirs *directives.Result, p lockpath.Path) bool {
	if call.Contract == nil {
		return false
	}
	for _, ref := range call.Contract.Excludes {
		if f.RefAtCall(dirs, ref, call.Node, call.Callee) == p {
			return true
		}
	}
	return false
}

func (c *checker) siteString(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// cycles finds lock-order cycles through this package's edges, in the graph
// of every edge this package and its dependencies saw, and exports this
// package's edges.
func (c *checker) cycles() {
	graph := map[string][]Edge{}
	for _, f := range c.pass.AllPackageFacts() {
		if es, ok := f.Fact.(*Edges); ok {
			for _, e := range es.List {
				graph[e.From] = append(graph[e.From], e)
			}
		}
	}
	var own Edges
	seen := map[string]bool{}
	for _, e := range c.edges {
		k := e.From + "\x00" + e.To
		if !seen[k] {
			seen[k] = true
			own.List = append(own.List, e.Edge)
			graph[e.From] = append(graph[e.From], e.Edge)
		}
	}
	if len(own.List) > 0 {
		c.pass.ExportPackageFact(&own)
	}
	reported := map[string]bool{}
	for _, e := range c.edges {
		if c.ordered(e.From, e.To) {
			continue // a declared order decides this pair; the declared check reports it
		}
		path := findPath(graph, e.To, e.From)
		if path == nil {
			continue
		}
		cycle := append([]Edge{e.Edge}, path...)
		key := cycleKey(cycle)
		if reported[key] {
			continue
		}
		reported[key] = true
		var parts []string
		for _, x := range cycle[1:] {
			parts = append(parts, fmt.Sprintf("%s then %s at %s", x.FromShow, x.ToShow, x.Site))
		}
		c.rep.Reportf(e.pos, report.Related(e.heldPos, e.FromShow+" locked here"),
			"potential deadlock: %s is acquired here%s while %s is held%s, but elsewhere the order is reversed (%s); pick one order and declare it %s",
			e.ToShow, instance(e.acqInst, e.ToShow), e.FromShow, instance(e.heldInst, e.FromShow), strings.Join(parts, "; "), c.orderLine(e))
	}
}

// findPath returns a path of edges from one class to another (BFS, so the
// shortest, in a deterministic order).
func findPath(graph map[string][]Edge, from, to string) []Edge {
	type item struct {
		at   string
		path []Edge
	}
	queue := []item{{at: from}}
	visited := map[string]bool{from: true}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		next := append([]Edge{}, graph[it.at]...)
		// Every field decides: the lists come from the dependencies'
		// facts in map order, and the path is printed.
		sort.Slice(next, func(i, j int) bool {
			a, b := next[i], next[j]
			return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Site, b.Site),
				cmp.Compare(a.FromShow, b.FromShow), cmp.Compare(a.ToShow, b.ToShow)) < 0
		})
		for _, e := range next {
			p := append(append([]Edge{}, it.path...), e)
			if e.To == to {
				return p
			}
			if !visited[e.To] {
				visited[e.To] = true
				queue = append(queue, item{at: e.To, path: p})
			}
		}
	}
	return nil
}

func cycleKey(cycle []Edge) string {
	var classes []string
	for _, e := range cycle {
		classes = append(classes, e.From)
	}
	sort.Strings(classes)
	return strings.Join(classes, "|")
}

func isGlobal(v *types.Var) bool { return v.Pkg() != nil && v.Parent() == v.Pkg().Scope() }
