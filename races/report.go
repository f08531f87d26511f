package races

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Result is what a run found: one diagnostic per racy write site, naming
// the access it races with as its related position, in source order.
type Result struct {
	Fset        *token.FileSet
	Diagnostics []analysis.Diagnostic
	// PackageOf is, for each diagnostic, the import path of the package
	// of its write.
	PackageOf []string
	// Roots and Functions say how much was analysed: the goroutine
	// roots followed and the function bodies they reach.
	Roots, Functions, Packages int
	// Truncated is set when the program had more roots than a run
	// follows (maxRoots).
	Truncated bool
	// UnreachedAPI counts, where a main or tests were the roots, the
	// exported methods of the packages named that a library run would
	// take as roots (their types lock their own fields) and that no root
	// reached: code the run did not look at (unreachedAPI).
	UnreachedAPI int
	// Broken are the packages named that were not analysed because they,
	// or packages they import, failed to load or type-check; their
	// Errors (and their imports') say why.
	Broken []*packages.Package
}

// maxSites bounds the accesses of one location that are paired; beyond
// it, the first ones in source order are.
const maxSites = 400

// report pairs the accesses of each location.
func (a *run) report() *Result {
	sets := map[string]internedSet{} // one copy of each lock set the sites hold
	refs, fns := a.accessRefs()
	locs := make([]string, 0, len(refs))
	for loc := range refs {
		locs = append(locs, loc)
	}
	sort.Strings(locs)
	byLoc := map[string][]site{}
	facts := map[rootFn][][]accessFacts{}
	for _, loc := range locs {
		sites, ok := a.locationSites(refs[loc], facts, sets)
		if !ok {
			return &Result{Fset: a.p.fset}
		}
		byLoc[loc] = sites
	}
	res := &Result{Fset: a.p.fset, Roots: len(a.roots), Functions: len(fns), Packages: len(a.p.pkgs), Truncated: len(a.roots) >= maxRoots, UnreachedAPI: a.unreachedAPI(fns), Broken: a.p.broken}
	reported := map[[2]int32]bool{}
	a.commonLock = newPairMemo(len(sets))
	var found []finding
	for _, loc := range locs {
		sites := byLoc[loc]
		if len(sites) == 0 {
			continue
		}
		found = append(found, a.pairs(loc, sites, guarded(loc, sites), reported)...)
	}
	sort.SliceStable(found, func(i, j int) bool {
		pi, pj := a.p.fset.Position(found[i].diag.Pos), a.p.fset.Position(found[j].diag.Pos)
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	for _, f := range found {
		res.Diagnostics = append(res.Diagnostics, f.diag)
		res.PackageOf = append(res.PackageOf, f.pkg)
	}
	return res
}

// accessRef is one access of a function as a root reaches it: the
// sites it makes are worked out only if they can be among the first
// maxSites of its location (locationSites).
type accessRef struct {
	r    *root
	fn   *ssa.Function
	accs []access
	i    int
}

// position is where an access is, and whether it writes: sites are
// paired in this order (sortSites).
type position struct {
	file   string
	offset int
	write  bool
}

type rootFn struct {
	r  *root
	fn *ssa.Function
}

// accessRefs is, for each location, the accesses the roots reach, by
// position, in the order of the roots and of their functions; and every
// function a root reaches.
func (a *run) accessRefs() (map[string]map[position][]accessRef, map[*ssa.Function]bool) {
	refs := map[string]map[position][]accessRef{}
	bodies := map[*ssa.Function][]access{}
	fns := map[*ssa.Function]bool{}
	lines := map[token.Position]int32{}
	for _, r := range a.roots {
		for _, fn := range a.reached(r) {
			fns[fn] = true
			accs, ok := bodies[fn]
			if !ok {
				accs = a.accessesOf(fn)
				for i := range accs {
					p := a.p.fset.Position(accs[i].pos)
					accs[i].line = token.Position{Filename: p.Filename, Line: p.Line}
					accs[i].offset = p.Offset
					if lines[accs[i].line] == 0 {
						lines[accs[i].line] = int32(len(lines) + 1)
					}
					accs[i].lineID = lines[accs[i].line]
				}
				bodies[fn] = accs
			}
			for i := range accs {
				acc := &accs[i]
				m := refs[acc.loc]
				if m == nil {
					m = map[position][]accessRef{}
					refs[acc.loc] = m
				}
				p := position{acc.line.Filename, acc.offset, acc.write}
				m[p] = append(m[p], accessRef{r, fn, accs, i})
			}
		}
	}
	return refs, fns
}

// locationSites is the sites of one location's accesses, in the order
// they are paired, the first maxSites: position by position (the order's
// first keys), each position's sorted by the rest. False if the run ran
// out of memory.
func (a *run) locationSites(byPos map[position][]accessRef, facts map[rootFn][][]accessFacts, sets map[string]internedSet) ([]site, bool) {
	positions := make([]position, 0, len(byPos))
	for p := range byPos {
		positions = append(positions, p)
	}
	sort.Slice(positions, func(i, j int) bool {
		x, y := positions[i], positions[j]
		if x.file != y.file {
			return x.file < y.file
		}
		if x.offset != y.offset {
			return x.offset < y.offset
		}
		return x.write && !y.write
	})
	var sites []site
	for _, p := range positions {
		start := len(sites)
		for _, ref := range byPos[p] {
			var ok bool
			if sites, ok = a.refSites(ref, sites, facts, sets); !ok {
				return nil, false
			}
		}
		a.sortSites(sites[start:])
		if len(sites) >= maxSites {
			return sites[:maxSites], true
		}
	}
	return sites, true
}

// refSites appends to sites the sites of one access as its root reaches
// it: one for each context, but that contexts that hold the same locks,
// with the same ownership, make one site, of the objects of both; none
// where no other goroutine can reach the object yet.
func (a *run) refSites(ref accessRef, sites []site, facts map[rootFn][][]accessFacts, sets map[string]internedSet) ([]site, bool) {
	r, fn, acc := ref.r, ref.fn, &ref.accs[ref.i]
	cs := r.ctxs[fn]
	fs, ok := facts[rootFn{r, fn}]
	if !ok {
		fs = make([][]accessFacts, len(cs))
		for j, c := range cs {
			fs[j] = a.factsOf(fn, c, ref.accs, sets)
		}
		facts[rootFn{r, fn}] = fs
	}
	var seen []keptSite // contexts that give the same site (a few: maxContexts)
	for j, c := range cs {
		if !a.budget.step() {
			return sites, false
		}
		f := fs[j][ref.i]
		st := site{root: r, fn: fn, ctx: c, acc: acc, held: f.held, heldKey: f.heldKey, heldID: f.heldID, own: f.own, kept: f.kept, objs: f.objs}
		if f.unshared || a.confined(r, acc.base, st.objs) {
			continue // no other goroutine can reach the object (yet)
		}
		k := siteKey{f.heldKey, st.own, st.kept}
		if i := slices.IndexFunc(seen, func(s keptSite) bool { return s.key == k }); i >= 0 {
			prev := &sites[seen[i].at]
			prev.objs = unionKnown(prev.objs, st.objs)
			continue
		}
		seen = append(seen, keptSite{k, len(sites)})
		sites = append(sites, st)
	}
	return sites, true
}

func (a *run) sortSites(sites []site) {
	// Sorted by index: a site is large, and a stable sort moves each
	// element many times.
	order := make([]int, len(sites))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		si, sj := &sites[order[x]], &sites[order[y]]
		ai, aj := si.acc, sj.acc
		if ai.line.Filename != aj.line.Filename {
			return ai.line.Filename < aj.line.Filename
		}
		if ai.offset != aj.offset {
			return ai.offset < aj.offset
		}
		if ai.write != aj.write {
			return ai.write
		}
		if si.root.index != sj.root.index {
			return si.root.index < sj.root.index
		}
		if hi, hj := si.heldKey, sj.heldKey; hi != hj {
			return hi < hj
		}
		if si.own != sj.own {
			return si.own < sj.own
		}
		if si.kept != sj.kept {
			return !si.kept
		}
		return a.p.name(si.fn) < a.p.name(sj.fn) // instances of one generic function
	})
	sorted := make([]site, len(sites))
	for i, k := range order {
		sorted[i] = sites[k]
	}
	copy(sites, sorted)
}

// pairs reports the races of loc's accesses, one finding per bug. The
// accesses of one function are one node of a graph (raceGraph), each
// racing pair of nodes an edge, and each finding is at the node that
// races with the most nodes not yet reported (hub): an unlocked read of
// a field racing with every locked write of it is one finding, at the
// read, not one at each write. A finding is at the node's first racing
// access (a write where it has one), names the first access of another
// node it races with, says how many more there are and lists up to four
// of them as related positions (those made by other roots first). A
// node racing only with itself (another instance of its root) is
// reported for that.
func (a *run) pairs(loc string, sites []site, guarded bool, reported map[[2]int32]bool) []finding {
	g := a.raceGraph(sites, guarded, reported)
	var out []finding
	for {
		hub, hubEdges := g.hub()
		if len(hubEdges) == 0 {
			return out
		}
		// A pair of lines another node already reported (two
		// instantiations of one generic function are two nodes) is not
		// reported again.
		fresh := hubEdges[:0:0]
		for _, p := range hubEdges {
			if !reported[[2]int32{p.at.acc.lineID, p.o.acc.lineID}] && !reported[[2]int32{p.o.acc.lineID, p.at.acc.lineID}] {
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			for _, p := range hubEdges {
				g.done[[2]*ssa.Function{hub, p.o.fn}], g.done[[2]*ssa.Function{p.o.fn, hub}] = true, true
			}
			continue
		}
		hubEdges = fresh
		// The pair shown: the first with another node, one whose access
		// on the hub writes where there is one; the node with itself
		// only if it races with nothing else.
		first := hubEdges[0]
		for _, p := range hubEdges {
			if p.o.fn != hub && (first.o.fn == hub || p.at.acc.write && !first.at.acc.write) {
				first = p
			}
		}
		at := first.at
		var rest []racePair
		for _, p := range hubEdges {
			g.done[[2]*ssa.Function{hub, p.o.fn}], g.done[[2]*ssa.Function{p.o.fn, hub}] = true, true
			reported[[2]int32{p.at.acc.lineID, p.o.acc.lineID}] = true
			if p != first {
				rest = append(rest, p)
			}
		}
		sort.SliceStable(rest, func(i, j int) bool { return rest[i].at.root != at.root && rest[j].at.root == at.root })
		out = append(out, finding{a.diagnostic(loc, *at, *first.o, rest), pkgPath(at.fn)})
	}
}

// raceGraph is a location's races: its nodes are functions (the
// accesses of the location in each), in the order of their first
// access; edges, for each node, the first racing pair with each access
// line of another node; wrote and unlocked, whether a node has a racing
// write, or a racing access holding no lock; done, the edges reported.
type raceGraph struct {
	nodes           []*ssa.Function
	edges           map[*ssa.Function][]racePair
	wrote, unlocked map[*ssa.Function]bool
	done            map[[2]*ssa.Function]bool
}

// raceGraph pairs every write site of a location with every site it
// races with, leaving out pairs reported under another location and
// those resting on the library assumption with no evidence.
func (a *run) raceGraph(sites []site, guarded bool, reported map[[2]int32]bool) *raceGraph {
	g := &raceGraph{edges: map[*ssa.Function][]racePair{}, wrote: map[*ssa.Function]bool{}, unlocked: map[*ssa.Function]bool{}, done: map[[2]*ssa.Function]bool{}}
	type key struct {
		at, o *ssa.Function
		line  int32
	}
	seen := map[key]bool{}
	add := func(at, o *site) {
		if at.heldKey == "" {
			g.unlocked[at.fn] = true
		}
		if k := (key{at.fn, o.fn, o.acc.lineID}); !seen[k] {
			seen[k] = true
			if g.edges[at.fn] == nil {
				g.nodes = append(g.nodes, at.fn)
			}
			g.edges[at.fn] = append(g.edges[at.fn], racePair{at, o})
		}
	}
	// known reports whether x's pair with y would add nothing: both
	// edges are there, and what they mark of their nodes is marked.
	known := func(x, y *site) bool {
		return seen[key{x.fn, y.fn, y.acc.lineID}] && seen[key{y.fn, x.fn, x.acc.lineID}] && g.wrote[x.fn] &&
			(x.heldKey != "" || g.unlocked[x.fn]) && (y.heldKey != "" || g.unlocked[y.fn])
	}
	for i := range sites {
		if !sites[i].acc.write {
			continue
		}
		for j := range sites {
			if i == j && !sites[i].root.multi || known(&sites[i], &sites[j]) || !a.races(&sites[i], &sites[j]) {
				continue
			}
			if onAssumption(&sites[i], &sites[j]) && !guarded && !lockedOnPath(&sites[i], &sites[j]) {
				continue // no evidence the location is shared state
			}
			wl, ol := sites[i].acc.lineID, sites[j].acc.lineID
			if reported[[2]int32{wl, ol}] || reported[[2]int32{ol, wl}] {
				continue // reported under another location
			}
			g.wrote[sites[i].fn] = true
			add(&sites[i], &sites[j])
			add(&sites[j], &sites[i])
		}
	}
	return g
}

// hub is the node with edges to the most other nodes not yet reported,
// and those edges; ties go to a node with an access holding no lock (the
// access that lacks one), then to one that writes, then to the first.
func (g *raceGraph) hub() (*ssa.Function, []racePair) {
	var hub *ssa.Function
	var hubEdges []racePair
	best := 0
	for _, n := range g.nodes {
		var open []racePair
		partners := map[*ssa.Function]bool{}
		for _, p := range g.edges[n] {
			if !g.done[[2]*ssa.Function{n, p.o.fn}] {
				open = append(open, p)
				partners[p.o.fn] = true
			}
		}
		d := len(partners)
		if d == 0 || d < best {
			continue
		}
		if d == best {
			if g.unlocked[n] != g.unlocked[hub] {
				if g.unlocked[hub] {
					continue // the node with an access holding no lock first
				}
			} else if !g.wrote[n] || g.wrote[hub] {
				continue // then one that writes; then the first
			}
		}
		hub, hubEdges, best = n, open, d
	}
	return hub, hubEdges
}

// guarded reports whether some access of loc, a field of a type T (or
// the entries of a map held in one), holds a lock that is a field of T:
// the program guards it as shared state (a package variable: a lock of
// its package; a captured variable: one of its function).
//
// A library's exported methods run at the same time only by assumption
// (RacerD's: their type locks its own mutex, so it is meant to be used
// concurrently). A race that rests on that assumption, between an
// exported method's access and another's or a goroutine's, is reported
// only with evidence that the location is shared state: one of the two
// accesses holds a lock, or the location is guarded. Races between
// goroutines the program starts itself need no assumption and are
// reported on any location.
func guarded(loc string, sites []site) bool {
	owner := strings.TrimSuffix(loc, "[]")
	if i := strings.LastIndex(owner, "."); i >= 0 {
		owner = owner[:i+1]
	}
	for _, s := range sites {
		for k := range s.held {
			if strings.HasPrefix(k, owner) && !strings.ContainsRune(k, '|') { // a closed flag's pseudo lock is no evidence
				return true
			}
		}
	}
	return false
}

// lockedOnPath reports whether x or y holds a lock of an object the
// access reaches its location through (c.mu for c.Opts.ErrCB, s.mu for
// the map s.services' entries' fields): a lock of the state the location
// is part of, though not of the location's own type. A lock of other
// state held by chance (a client's connection lock while it fills a
// request) is no evidence.
func lockedOnPath(x, y *site) bool {
	if x.heldKey == "" && y.heldKey == "" {
		return false
	}
	on := map[string]bool{}
	pathTypes(x.acc.base, on)
	pathTypes(y.acc.base, on)
	for _, s := range []*site{x, y} {
		for k := range s.held {
			if i := strings.LastIndex(k, "."); i > 0 && on[k[:i]] && !strings.ContainsRune(k, '|') {
				return true
			}
		}
	}
	return false
}

// pathTypes adds to on the named struct types that v, an access's base,
// is reached through in its function: the structs whose fields, the
// maps and slices whose entries, it is loaded from.
func pathTypes(v ssa.Value, on map[string]bool) {
	for range 12 {
		if v == nil {
			return
		}
		if ptr, ok := types.Unalias(v.Type()).Underlying().(*types.Pointer); ok {
			if named, ok := types.Unalias(ptr.Elem()).(*types.Named); ok {
				on[qualifiedName(named)] = true
			}
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			if named, ok := types.Unalias(x.X.Type()).(*types.Named); ok {
				on[qualifiedName(named)] = true
			}
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Lookup:
			v = x.X
		case *ssa.UnOp:
			v = x.X
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.Next:
			v = x.Iter
		case *ssa.Range:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.TypeAssert:
			v = x.X
		default:
			return
		}
	}
}

// onAssumption reports whether x and y can run at the same time only by
// RacerD's assumption that a library's exported methods run at once: one
// of them is such a method's. (Two instances of a goroutine that runs
// many times at once only because such a method starts it are not taken
// to run at once at all: concurrent.)
func onAssumption(x, y *site) bool {
	return x.root.top.assumed || y.root.top.assumed
}

// accessFacts is what the sites of one access in one content of its
// function's contexts know, whichever root reached it (contentmemo.go):
// the locks held (the same set for every site that holds them, and its
// key), how own its object is, whether it is kept (shared with none but
// goroutines its goroutine starts) or not shared at all yet, and what
// it can point into.
type accessFacts struct {
	held     lockSet
	heldKey  string
	heldID   int32
	own      ownership
	kept     bool
	unshared bool
	objs     objSet
}

// factsOf is accessFacts for each of accs, fn's accesses, in context c:
// worked out once for each content of c.
func (a *run) factsOf(fn *ssa.Function, c *context, accs []access, sets map[string]internedSet) []accessFacts {
	m := a.memoOf(fn, c)
	if m.facts != nil {
		return m.facts
	}
	bl := a.bodyLocksOf(fn)
	m.facts = make([]accessFacts, len(accs))
	for i := range accs {
		acc := &accs[i]
		h := flagsFor(bl.held(acc.instr, c.entry), acc.loc)
		if d := a.detachedUnder(fn, c, acc); len(d) > 0 {
			h = h.with(d)
		}
		held, hk, id := interned(h, sets)
		m.facts[i] = accessFacts{held: held, heldKey: hk, heldID: id, own: a.ownAccess(fn, c, acc), kept: a.unsharedAccess(fn, c, acc, beyondSpawned), unshared: a.unsharedAccess(fn, c, acc, toAnyone), objs: a.objectsIn(fn, c, acc.base)}
	}
	return m.facts
}

// ownAccess is how surely acc's object is the accessing instance's own.
func (a *run) ownAccess(fn *ssa.Function, c *context, acc *access) ownership {
	if acc.base == nil {
		return notOwn
	}
	return a.own(fn, c, acc.base)
}

// keptSite is a site kept for an access, by its key, and where it is
// among its location's.
type keptSite struct {
	key siteKey
	at  int
}

// siteKey is what tells two sites of one access apart: the locks held,
// how own the object is, and whether it is kept.
type siteKey struct {
	held string
	own  ownership
	kept bool
}

// interned is s, or the equal set seen before (sets holds one of each),
// and its key: the many sites that hold the same locks share one set and
// one key (the key made for a site is garbage once looked up).
func interned(s lockSet, sets map[string]internedSet) (lockSet, string, int32) {
	if len(s) == 0 {
		return nil, "", 0
	}
	k := strings.Join(s.sorted(), "\x00")
	if old, ok := sets[k]; ok {
		return old.set, old.key, old.id
	}
	id := int32(len(sets) + 1)
	sets[k] = internedSet{s, k, id}
	return s, k, id
}

// internedSet is a lock set and its key, kept once for all sites, and
// its number (from 1; 0 is the empty set).
type internedSet struct {
	set lockSet
	key string
	id  int32
}

// shareLock reports whether x and y, sites that both hold locks, hold
// one in common: worked out once for each pair of lock sets.
func (a *run) shareLock(x, y *site) bool {
	return a.commonLock.get(x.heldID, y.heldID, func() bool { return intersects(x.held, y.held) })
}

// pairMemo memoises a symmetric yes or no for pairs of numbers from 1
// to n: in a table where n is small enough (pairing asks millions of
// times), in a map otherwise.
type pairMemo struct {
	n     int32
	table []uint8 // 0 unknown, 1 no, 2 yes
	big   map[[2]int32]bool
}

// maxPairTable bounds n for the table (n*n bytes).
const maxPairTable = 4096

func newPairMemo(n int) *pairMemo {
	if n <= maxPairTable {
		return &pairMemo{n: int32(n), table: make([]uint8, (n+1)*(n+1))}
	}
	return &pairMemo{n: int32(n), big: map[[2]int32]bool{}}
}

// get is the answer for i and j, from compute the first time.
func (m *pairMemo) get(i, j int32, compute func() bool) bool {
	if i > j {
		i, j = j, i
	}
	if m.table == nil {
		v, ok := m.big[[2]int32{i, j}]
		if !ok {
			v = compute()
			m.big[[2]int32{i, j}] = v
		}
		return v
	}
	k := int(i)*int(m.n+1) + int(j)
	if m.table[k] == 0 {
		m.table[k] = 1
		if compute() {
			m.table[k] = 2
		}
	}
	return m.table[k] == 2
}

// racePair is a write and an access it races with.
// racePair is two racing sites: at is on the line a finding is at.
type racePair struct{ at, o *site }

// races reports whether x and y can run at the same time with nothing
// between them: roots that can run at once, no lock held at both, and
// no order from how the roots were started.
func (a *run) races(x, y *site) bool {
	if !x.acc.write && !y.acc.write || x.acc.atomic && y.acc.atomic {
		return false
	}
	if !concurrent(x.root, y.root) || (x.root.top != y.root.top && (beforeParallel(*x) || beforeParallel(*y))) {
		return false
	}
	if x.heldID != 0 && y.heldID != 0 && (x.heldID == y.heldID || a.shareLock(x, y)) {
		return false // both hold locks, one in common
	}
	if a.spans(x, y) || a.spans(y, x) {
		return false // one runs inside a critical section of the other's lock
	}
	return mayAlias(x.objs, y.objs) && !distinct(*x, *y) && !a.startsApart(x, y) && !a.ordered(x, y)
}

// concurrent reports whether code of roots x and y can run at the same
// time.
func concurrent(x, y *root) bool {
	if x.top != y.top {
		return x.top.concurrent && y.top.concurrent
	}
	if x == y {
		return x.multi && !x.assumedMulti
	}
	return true
}

// maxRelated bounds the other accesses a finding lists as related
// positions, after the one its message names.
const maxRelated = 4

func (a *run) diagnostic(loc string, w, o site, rest []racePair) analysis.Diagnostic {
	also := ""
	if more := len(rest); more > 0 {
		also = fmt.Sprintf(" (and %d more %s)", more, plural(more, "access", "accesses"))
	}
	msg := fmt.Sprintf("%s %s in %s races with its %s in %s%s; %s: guard both with one lock, or order them (start the goroutine after the write, or wait for it before)",
		shown(loc), pastOf(w), a.where(w), kindOf(o), a.where(o), also, a.lockText(w, o))
	related := []analysis.RelatedInformation{{Pos: o.acc.pos, Message: "the " + kindOf(o) + " of " + shown(loc) + " in " + a.p.name(o.fn)}}
	for i, p := range rest {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: p.o.acc.pos, Message: fmt.Sprintf("also the %s of %s in %s, against the %s in %s", kindOf(*p.o), shown(loc), a.where(*p.o), kindOf(*p.at), a.where(*p.at))})
	}
	return analysis.Diagnostic{Pos: w.acc.pos, Category: Rule, Message: msg, Related: related}
}

// pastOf is how a finding's message says what its line's access does.
func pastOf(s site) string {
	if s.acc.write {
		return "written"
	}
	return "read"
}

func kindOf(s site) string {
	if s.acc.write {
		return "write"
	}
	return "read"
}

// where names an access's function and how its root reaches it:
// Session.Detach (handler /detach: Server.detach → Session.Detach).
func (a *run) where(s site) string {
	var names []string
	if s.ctx != nil && s.ctx.fn == s.fn {
		// The calls that entered the access's context: the path its
		// locks were held along.
		seen := map[*context]bool{}
		for c := s.ctx; c != nil && !seen[c]; c = c.from {
			seen[c] = true
			names = append(names, a.p.name(c.fn))
		}
		slices.Reverse(names)
	} else {
		for _, e := range s.root.path(s.fn) {
			names = append(names, a.p.name(e.caller))
		}
	}
	return fmt.Sprintf("%s (%s: %s)", a.p.name(s.fn), s.root.label, strings.Join(names, " → "))
}

func (a *run) lockText(w, o site) string {
	wd, od := describe(w.held), describe(o.held)
	if wd == "none" && od == "none" {
		return "no lock is held at either"
	}
	return fmt.Sprintf("no lock is held at both (the %s holds %s, the other %s)", kindOf(w), wd, od)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// finding is a diagnostic and the package of its write.
type finding struct {
	diag analysis.Diagnostic
	pkg  string
}

func pkgPath(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path()
	}
	return ""
}

// Describe is the races rule as the outputs name rules: its name, its
// documentation's first line and its page. It is not a pass: guardvet
// races runs the analysis on a whole program (Analyze).
func Describe() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: Rule,
		Doc:  Doc,
		URL:  "https://github.com/guardvet/guardvet/blob/main/docs/rules/races.md",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
}
