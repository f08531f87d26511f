package checkthenact

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

//go:embed doc.go
var docFile string

// Analyzer is the checkthenact rule.
var Analyzer = &analysis.Analyzer{
	Name:       "checkthenact",
	Doc:        docs.Extract(docFile, "checkthenact"),
	URL:        "https://github.com/guardvet/guardvet/blob/main/docs/rules/checkthenact.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{lockstate.Analyzer},
	ResultType: report.UsedType,
	FactTypes:  []analysis.Fact{(*FieldOps)(nil)},
}

// Category is the diagnostic category of this rule.
const Category = "checkthenact"

// FieldOp is a guarded field a function reads or writes inside one of its
// own critical sections, on an object reached from a parameter.
type FieldOp struct {
	Field     string // field key: pkg/path.Type.field
	Name      string // the field's name, for messages
	Sub       string // the part of a struct-typed field used (.a.b), or "" for all of it
	Base      directives.LockRef
	Write     bool
	Rechecked bool // a write preceded by a read of the field in the same critical section
	// Internal marks a read whose value reaches none of the function's
	// results: a caller cannot decide anything from it (Connect reads a
	// queue and returns an error that says nothing of it).
	Internal bool
	// Results lists the results a read reaches (by index): a caller that
	// uses only some of them depends only on those reads.
	Results []int `json:",omitempty"`
	// Held marks an access under a lock the caller holds (Lock, rooted at
	// a parameter or a package-level variable): it belongs to the
	// caller's critical section, not to one the function opens.
	Held bool
	Lock directives.LockRef
}

// FieldOps summarises the guarded fields a function touches under locks it
// takes itself: lockedPTMX reads s.ptmx, setPTYTriple writes it.
type FieldOps struct{ Ops []FieldOp }

func (*FieldOps) AFact() {}

func (f *FieldOps) String() string {
	var parts []string
	for _, op := range f.Ops {
		verb := "reads"
		if op.Internal {
			verb = "reads-internally"
		}
		if op.Write {
			verb = "writes"
			if op.Rechecked {
				verb = "rechecks-writes"
			}
		}
		part := verb + " " + op.Base.Text + "." + op.Name + op.Sub
		if len(op.Results) > 0 && !(len(op.Results) == 1 && op.Results[0] == 0) {
			part += fmt.Sprintf(" ->%v", op.Results)
		}
		if op.Held {
			part += " under held " + op.Lock.Text
		}
		parts = append(parts, part)
	}
	return "fieldops(" + strings.Join(parts, ", ") + ")"
}

// event is a read or write of one guarded field instance in one critical
// section of a function body.
type event struct {
	field     string
	name      string
	sub       string // .a.b: the part of a struct-typed field used
	base      lockpath.Path
	write     bool
	rechecked bool
	internal  bool          // a helper's read that reaches none of its results
	results   []int         // the helper results a read reaches
	lock      lockpath.Path // the lock held, if known
	section   token.Pos     // where the lock was taken (or the helper call)
	node      ast.Node      // the access, or the helper call
	helper    string
	state     *lockstate.State // the locks held at the access or call
	// requires lists the locks a write needs held: the field's guards,
	// or the locks the helper's contract says its callers hold.
	requires []lockpath.Path
}

type checker struct {
	pass  *analysis.Pass
	ls    *lockstate.Result
	rep   *report.Reporter
	funcs map[*types.Func][]*lockstate.Func
	ops   *summaries.Memo[FieldOps, *FieldOps]
	parts map[*types.Func]*recvParts
	// parents memoizes astq.Parents per body: several checks of one
	// function look up the statements around its events.
	parents map[ast.Node]map[ast.Node]ast.Node
	// curResults, while a helper's read is being followed, lists the
	// helper results that carry it (nil: any value the node has).
	curResults []int
	// defs and rets index each body's multi-value definitions and return
	// statements.
	defs map[*ast.BlockStmt]map[*types.Var][]multiDef
	rets map[*ast.BlockStmt][]*ast.ReturnStmt
	// flows holds each body's control-flow view, built when needed.
	flows map[*lockstate.Func]*flowGraph
	// callers caches callerLocks, callsTo indexes the package's calls by
	// callee, and called marks the identifiers that name a called
	// function (see callers.go).
	callers map[*types.Func]held
	callsTo map[*types.Func][]callSite
	called  map[*ast.Ident]bool
	ctors   map[*types.Func]bool
	// ignoredFns caches ignored.
	ignoredFns map[*types.Func]bool
	// taints caches which locals carry a read, per body and read.
	taints map[taintKey]*taint
}

func (c *checker) parentsOf(root ast.Node) map[ast.Node]ast.Node {
	p, ok := c.parents[root]
	if !ok {
		p = astq.Parents(root)
		c.parents[root] = p
	}
	return p
}

func run(pass *analysis.Pass) (any, error) {
	ls := pass.ResultOf[lockstate.Analyzer].(*lockstate.Result)
	defer ls.Done()
	c := &checker{pass: pass, ls: ls, rep: report.New(pass, ls.Dirs.Ignores, Category),
		funcs: map[*types.Func][]*lockstate.Func{}, parts: map[*types.Func]*recvParts{},
		parents: map[ast.Node]map[ast.Node]ast.Node{},
		defs:    map[*ast.BlockStmt]map[*types.Var][]multiDef{}, rets: map[*ast.BlockStmt][]*ast.ReturnStmt{},
		flows: map[*lockstate.Func]*flowGraph{}, callers: map[*types.Func]held{}, ctors: map[*types.Func]bool{}, ignoredFns: map[*types.Func]bool{}, taints: map[taintKey]*taint{}}
	c.ops = summaries.New(pass, c.computeOps)
	if !ls.Dirs.Active() {
		return c.rep.Flush(), nil
	}
	if !ls.Dirs.Full() {
		c.rep.Silence() // facts for annotated importers, no reports here
	}
	c.funcs = ls.Bodies()
	for _, f := range ls.Funcs {
		c.check(f)
		c.syncMap(f)
		c.atomics(f)
	}
	var fns []*types.Func
	for fn := range c.funcs {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return srcpos.Less(c.pass.Fset, fns[i].Pos(), fns[j].Pos()) })
	for _, fn := range fns {
		if ops := c.opsOf(fn); ops != nil && len(ops.Ops) > 0 {
			pass.ExportObjectFact(fn, ops)
		}
	}
	return c.rep.Flush(), nil
}

// events lists the guarded reads and writes of a body, each tagged with
// its critical section, in source order.
func (c *checker) events(f *lockstate.Func) []event {
	var out []event
	var parents map[ast.Node]ast.Node
	for _, acc := range f.Accesses {
		if !acc.Base.Valid() || acc.Fresh {
			continue
		}
		for _, ref := range acc.Guard.By {
			lock, _ := c.ls.LockFor(c.pass.Pkg, acc, ref)
			v := acc.State.Lock(lock)
			if !lock.Valid() || !v.Mode.Held() {
				continue
			}
			if parents == nil {
				parents = c.parentsOf(bodyOf(f))
			}
			var requires []lockpath.Path
			for _, ref := range acc.Guard.By {
				if l, _ := c.ls.LockFor(c.pass.Pkg, acc, ref); l.Valid() {
					requires = append(requires, l)
				}
			}
			for _, sub := range c.subPaths(parents, acc.Node) {
				out = append(out, event{field: fieldKey(acc.Var), name: acc.Var.Name(), sub: sub, base: acc.Base, write: acc.Write,
					lock: lock, section: v.Site, node: acc.Node, state: acc.State, requires: requires})
			}
			break
		}
	}
	for _, call := range f.Calls {
		ops := c.opsOf(call.Callee)
		if ops == nil {
			continue
		}
		var contract []lockpath.Path
		if call.Contract != nil {
			for _, ref := range call.Contract.Holds {
				if l := f.RefAtCall(c.ls.Dirs, ref, call.Node, call.Callee); l.Valid() {
					contract = append(contract, l)
				}
			}
		}
		for _, op := range ops.Ops {
			base := f.RefAtCall(c.ls.Dirs, op.Base, call.Node, call.Callee)
			if !base.Valid() {
				continue
			}
			ev := event{field: op.Field, name: op.Name, sub: op.Sub, base: base, write: op.Write, rechecked: op.Rechecked, internal: op.Internal, results: op.Results,
				section: call.Node.Pos(), node: call.Node, helper: types.ExprString(call.Node.Fun), state: call.State}
			// A lock of the written object, or of an object that contains
			// it (e.mu guarding e.mu.state), that the helper requires
			// held: every write through this helper holds it.
			for _, l := range contract {
				if o := l.Owner(); o == base || insideByValue(o, base) {
					ev.requires = append(ev.requires, l)
				}
			}
			if op.Held {
				// The helper works inside the caller's critical section.
				lock := f.RefAtCall(c.ls.Dirs, op.Lock, call.Node, call.Callee)
				v := call.State.Lock(lock)
				if !lock.Valid() || !v.Mode.Held() {
					continue // a broken contract, guardedby's report
				}
				ev.lock, ev.section = lock, v.Site
			}
			out = append(out, ev)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].node.Pos() < out[j].node.Pos() })
	// A write after a read of the same field (the same part, the same map
	// key) in the same critical section is a re-check under the lock that
	// writes: setPTYTriple looks at ptmx again before it installs, and
	// bails out. A read of some other field is not: it does not re-check
	// what the decision was based on. The re-read must be on every path
	// to the write, after the lock was last taken (or given up and taken
	// back): one in a branch the write is not in does not count, wherever
	// the branch is (a loop that looks only while busy, a case of a
	// switch, one arm of an if).
	for i := range out {
		w := out[i]
		if !w.write {
			continue
		}
		var reads []ast.Node
		for j := 0; j < i; j++ {
			r := out[j]
			if r.write || !sameField(r, w) {
				continue
			}
			if r.node == w.node && r.section == w.section {
				// One step reads and then writes the field: a helper
				// that looks at it before it writes it, or a write
				// through a pointer taken from the field after a read
				// through it (both recorded where the address was
				// taken).
				out[i].rechecked = true
				break
			}
			if w.lock.Valid() && r.state != nil && r.state.Lock(w.lock).Mode.Held() {
				reads = append(reads, r.node)
			}
		}
		if out[i].rechecked || len(reads) == 0 {
			continue
		}

		if parents == nil {
			parents = c.parentsOf(bodyOf(f))
		}
		if fg := c.flow(f); fg != nil && !fg.reachesAvoiding(parents, w.node, reads, sectionStarts(f, w.lock)) {
			out[i].rechecked = true
		}
	}
	return out
}

// opsOf summarises a function's guarded reads and writes in sections it
// opens itself, rooted at its parameters.
func (c *checker) opsOf(fn *types.Func) *FieldOps { return c.ops.Of(fn) }

// computeOps summarises a function of this package from its bodies.
func (c *checker) computeOps(fn *types.Func) *FieldOps {
	if len(c.funcs[fn]) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := directives.ParamIndex(sig)
	entry := c.funcs[fn][0].Entry
	ops := &FieldOps{}
	seen := map[string]bool{}
	for _, body := range c.funcs[fn] {
		for _, e := range c.events(body) {
			i, ok := params[e.base.Root]
			if !ok {
				continue
			}
			// A map key is an expression of this body, meaningless to a
			// caller: the op is on the whole map.
			sub, _, _ := strings.Cut(e.sub, "[")
			op := FieldOp{Field: e.field, Name: e.name, Sub: sub, Write: e.write, Rechecked: e.rechecked,
				Internal: !e.write && (e.internal || len(c.reachedResults(body, e.node, e.results)) == 0),
				Results:  c.reachedResults(body, e.node, e.results),
				Base:     directives.LockRef{Kind: directives.Param, Param: i, Sel: e.base.Sel, Text: e.base.String()}}
			// A lock held on entry (a //guard:holds function) is the
			// caller's critical section: the access happens in it.
			if e.lock.Valid() && entry.Lock(e.lock).Mode.Held() {
				ref, ok := lockRef(e.lock, params)
				if !ok {
					continue
				}
				op.Held, op.Lock = true, ref
			}
			key := op.Field + op.Sub + op.Base.Text + map[bool]string{true: "w", false: "r"}[op.Write] + op.Lock.Text
			if !seen[key] {
				seen[key] = true
				ops.Ops = append(ops.Ops, op)
			} else if op.Write && !op.Rechecked {
				for k := range ops.Ops {
					if ops.Ops[k].Field == op.Field && ops.Ops[k].Sub == op.Sub && ops.Ops[k].Base.Text == op.Base.Text && ops.Ops[k].Write && ops.Ops[k].Lock.Text == op.Lock.Text {
						ops.Ops[k].Rechecked = false
					}
				}
			}
		}
	}
	return ops
}

// reachedResults lists the results of the function that the value read
// at n flows into: a return statement returns it, or a value computed
// from it. from, for a read inside a helper called at n, is the helper's
// results that carry it.
func (c *checker) reachedResults(f *lockstate.Func, n ast.Node, from []int) []int {
	saved := c.curResults
	c.curResults = from
	defer func() { c.curResults = saved }()
	var out []int
	for _, ret := range c.returns(f) {
		for k, res := range ret.Results {
			if !slices.Contains(out, k) && (c.containsValue(res, n) || c.usesValueOf(f, res, n)) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// containsValue reports whether expression e contains the read r as a
// value: for a helper call, only if its first result carries the read.
func (c *checker) containsValue(e, r ast.Node) bool {
	return contains(e, r) && (c.curResults == nil || slices.Contains(c.curResults, 0))
}

// lockRef names a lock held on entry in the function's own terms: rooted
// at a parameter or a package-level variable.
func lockRef(p lockpath.Path, params map[types.Object]int) (directives.LockRef, bool) {
	if i, ok := params[p.Root]; ok {
		return directives.LockRef{Kind: directives.Param, Param: i, Sel: p.Sel, Text: p.String()}, true
	}
	if v, ok := p.Root.(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return directives.LockRef{Kind: directives.Global, PkgPath: v.Pkg().Path(), Name: v.Name(), Sel: p.Sel, Text: p.String()}, true
	}
	return directives.LockRef{}, false
}

// check reports writes that act on a read from an earlier section.
func (c *checker) check(f *lockstate.Func) {
	evs := c.events(f)
	if len(evs) < 2 {
		return
	}
	parents := c.parentsOf(bodyOf(f))
	for i, w := range evs {
		if !w.write || w.rechecked {
			continue
		}
		for _, r := range evs[:i] {
			if r.internal {
				continue // nothing the caller sees depends on it
			}
			if r.write || r.field != w.field || r.base != w.base || r.section == w.section || disjoint(r.sub, w.sub) || consumed(evs, r) {
				continue
			}
			// A guard clause on the read (if ok { return s }, or if f :=
			// s.lockedPTMX(); f != nil { return f }) decides whether the
			// write runs as much as a branch around it. A helper's read
			// counts only through the results it reaches.
			c.curResults = r.results
			depends := c.controlledBy(f, parents, w.node, r.node) || c.writesValueOf(f, parents, w.node, r.node)
			c.curResults = nil
			if !depends || c.heldAcross(f, r, w) {
				continue
			}
			where := ""
			if r.helper != "" {
				where = " (in " + r.helper + ")"
			}
			p := c.pass.Fset.Position(r.node.Pos())
			shownField := w.base.Local(c.pass.Pkg) + "." + w.name + r.sub
			// Name the writing section: the lock taken again, or the
			// helper that takes it.
			section := "opened by " + w.helper
			if w.lock.Valid() {
				section = w.lock.Local(c.pass.Pkg) + " locked again at line " + strconv.Itoa(c.pass.Fset.Position(w.section).Line)
				if w.helper != "" && w.section == w.node.Pos() {
					section = w.lock.Local(c.pass.Pkg) + " taken inside " + w.helper
				}
			}
			c.rep.Reportf(w.node.Pos(), report.Related(r.node.Pos(), shownField+" read here, in an earlier critical section"),
				"check-then-act: %s was read at line %d%s and the lock released; this write, in a later critical section (%s), depends on that read, so two callers can both act on the old value: re-check %s under the lock that writes, or keep check and write in one critical section",
				shownField, p.Line, where, section, shownField)
			break
		}
	}
}

// consumed reports whether the section of read r also writes the field
// after reading it: the value was taken out (dequeue reads the list head
// and removes it), not looked at, so what the caller does with it later
// acts on nothing stale.
func consumed(evs []event, r event) bool {
	for _, e := range evs {
		if e.write && e.section == r.section && sameField(e, r) && e.node.Pos() >= r.node.Pos() {
			return true
		}
	}
	return false
}

// heldAcross reports whether an outer lock is held across the read and
// the write, from one acquisition, so that the two inner sections are one
// critical section of it:
//   - a lock the write needs, held exclusively at both (a guard of the
//     field, or one the writing helper's contract requires: every writer
//     holds it; mu held, info read under infoMu, then written under infoMu
//     again by a helper that requires mu);
//   - a lock of the written object itself, or of an object that holds it
//     by value, held exclusively at both (gVisor's parent.opMu around the
//     childrenMu sections of a create): two callers of this code cannot
//     both act on the old value, which is what the rule reports; a write
//     elsewhere that bypasses the object's own lock is another bug;
//   - any other lock held across that every write of the field in the
//     package conflicts with (see writersExcluded).
func (c *checker) heldAcross(f *lockstate.Func, r, w event) bool {
	if r.state == nil || w.state == nil {
		return false
	}
	exclusive := func(p lockpath.Path) bool {
		rv, wv := r.state.Lock(p), w.state.Lock(p)
		return rv.Mode == lockstate.Exclusive && wv.Mode == lockstate.Exclusive && rv.Site == wv.Site
	}
	for _, p := range w.requires {
		if exclusive(p) {
			return true
		}
	}
	for _, p := range w.state.Held() {
		if o := p.Owner(); p != w.lock && (o == w.base || insideByValue(o, w.base)) && exclusive(p) {
			return true
		}
	}
	across := c.across(f, r.state, w.state)
	delete(across, w.lock)
	ok, _ := c.writersExcluded(w.field, w.base, across)
	return ok
}

// insideByValue reports whether the object at path in is part of the
// object at path o, by value: e.mu.state is inside e.mu when state is a
// struct field of e.mu, not when a pointer leads elsewhere (ch.ln.aq is
// the listener's, not ch's).
func insideByValue(o, in lockpath.Path) bool {
	if o.Root != in.Root || !strings.HasPrefix(in.Sel, o.Sel+".") {
		return false
	}
	t := o.Root.Type()
	for _, name := range strings.Split(strings.TrimPrefix(o.Sel, "."), ".") {
		if name == "" {
			break
		}
		if t = fieldType(t, name, true); t == nil {
			return false
		}
	}
	for _, name := range strings.Split(in.Sel[len(o.Sel)+1:], ".") {
		if strings.Contains(name, "[") {
			return false
		}
		if t = fieldType(t, name, false); t == nil {
			return false
		}
	}
	return true
}

// fieldType is the type of field name of struct type t, following a
// pointer to the struct only when deref is set.
func fieldType(t types.Type, name string, deref bool) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if !deref {
			return nil
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i).Type()
		}
	}
	return nil
}

// subPaths returns the fields selected from a struct-typed guarded field
// at an access: ".capacity" for l.q.capacity, "" when the whole field is
// used. A method of this package called on the field uses the fields of
// its receiver it selects: l.q.isFull() reads .done and .capacity when
// isFull looks only at those.
func (c *checker) subPaths(parents map[ast.Node]ast.Node, n ast.Node) []string {
	sub := ""
	for {
		if ix, ok := parents[n].(*ast.IndexExpr); ok && ix.X == n {
			// One entry of a map: m[k] and m[j] are different entries
			// when k and j are different expressions.
			if _, isMap := c.pass.TypesInfo.TypeOf(n.(ast.Expr)).Underlying().(*types.Map); isMap {
				return []string{sub + "[" + types.ExprString(ix.Index) + "]"}
			}
		}
		p, ok := parents[n].(*ast.SelectorExpr)
		if !ok || p.X != n {
			return []string{sub}
		}
		sel := c.pass.TypesInfo.Selections[p]
		if sel == nil {
			return []string{sub}
		}
		if sel.Kind() == types.MethodVal {
			fn, _ := sel.Obj().(*types.Func)
			if fn == nil || len(sel.Index()) != 1 {
				return []string{sub}
			}
			parts := c.recvParts(fn.Origin())
			if parts == nil || parts.whole || len(parts.fields) == 0 {
				return []string{sub}
			}
			out := make([]string, len(parts.fields))
			for k, name := range parts.fields {
				out[k] = sub + "." + name
			}
			return out
		}
		if sel.Kind() != types.FieldVal {
			return []string{sub}
		}
		sub += "." + p.Sel.Name
		n = p
	}
}

// recvParts is what a method does with its receiver: the fields it
// selects, or the whole value when it uses the receiver any other way
// (passes it on, copies it, takes its address).
type recvParts struct {
	fields []string
	whole  bool
}

// recvParts returns the receiver fields a method of this package selects,
// following the methods it calls on the same receiver; nil when the body
// is not known.
func (c *checker) recvParts(fn *types.Func) *recvParts {
	if p, ok := c.parts[fn]; ok {
		return p
	}
	var decl *ast.FuncDecl
	for _, body := range c.funcs[fn] {
		if body.Lit == nil && body.Decl != nil && body.Decl.Body != nil {
			decl = body.Decl
			break
		}
	}
	sig, _ := fn.Type().(*types.Signature)
	if decl == nil || sig == nil || sig.Recv() == nil {
		c.parts[fn] = nil
		return nil
	}
	recv := sig.Recv()
	p := &recvParts{}
	// While this body is read, a method that calls back into it uses
	// the whole receiver: its parts are not known yet.
	c.parts[fn] = &recvParts{whole: true}
	defer func() { c.parts[fn] = p }()
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			p.fields = append(p.fields, name)
		}
	}
	parents := c.parentsOf(decl.Body)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || p.whole || c.pass.TypesInfo.Uses[id] != recv {
			return !p.whole
		}
		se, ok := parents[id].(*ast.SelectorExpr)
		if !ok || se.X != id {
			p.whole = true
			return false
		}
		sel := c.pass.TypesInfo.Selections[se]
		switch {
		case sel == nil:
			p.whole = true
		case sel.Kind() == types.FieldVal:
			add(sel.Obj().Name())
		case sel.Kind() == types.MethodVal && len(sel.Index()) == 1:
			m, _ := sel.Obj().(*types.Func)
			sub := (*recvParts)(nil)
			if m != nil {
				sub = c.recvParts(m.Origin())
			}
			if sub == nil || sub.whole {
				p.whole = true
				break
			}
			for _, name := range sub.fields {
				add(name)
			}
		default:
			p.whole = true
		}
		return false
	})
	return p
}

// disjoint reports whether two parts of a struct-typed field, or two
// entries of a map, do not overlap: .capacity and .pending are disjoint,
// .q and .q.n are not; [k] and [j] are, [k] and the whole map are not.
func disjoint(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return !strings.HasPrefix(a+".", b+".") && !strings.HasPrefix(b+".", a+".") && a != b
}

// sameField reports whether two events touch the same part of the same
// field instance.
func sameField(a, b event) bool {
	return a.field == b.field && a.base == b.base && !disjoint(a.sub, b.sub)
}

// writesValueOf reports whether the value the write w stores uses r: the
// right-hand side of the assignment w is on the left of, or an argument
// of the helper call w.
func (c *checker) writesValueOf(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	uses := func(e ast.Node) bool { return c.containsValue(e, r) || c.usesValueOf(f, e, r) }
	if call, ok := w.(*ast.CallExpr); ok {
		for _, arg := range call.Args {
			if uses(arg) {
				return true
			}
		}
		return false
	}
	for n := w; n != nil; n = parents[n] {
		as, ok := parents[n].(*ast.AssignStmt)
		if !ok {
			if _, stmt := parents[n].(ast.Stmt); stmt {
				return false
			}
			continue
		}
		for k, lhs := range as.Lhs {
			if lhs != n {
				continue
			}
			if len(as.Rhs) == len(as.Lhs) {
				return uses(as.Rhs[k])
			}
			return uses(as.Rhs[0])
		}
		return false
	}
	return false
}

// condOn reports whether a condition (with its init statement) depends on
// the value read at r: it contains the read, or uses a local computed from
// it. When r is a helper call, its error result does not count: branching
// on it is error handling (if err := s.load(); err != nil { return err }).
func (c *checker) condOn(f *lockstate.Func, cond ast.Node, init ast.Stmt, r ast.Node) bool {
	call, isCall := r.(*ast.CallExpr)
	if c.containsValue(cond, r) && !(isCall && isError(c.pass.TypesInfo.TypeOf(call))) {
		return true
	}
	if init != nil && contains(init, r) && !isCall {
		return true
	}
	return c.usesValueOf(f, cond, r)
}

// controlledBy reports whether whether w runs is decided by a branch on
// the value read at r: w is control dependent, on the go/cfg graph, on a
// condition that uses r (an if or loop around w, a switch case, or a
// guard clause or early exit anywhere before it, whatever the nesting).
func (c *checker) controlledBy(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	fg := c.flow(f)
	if fg == nil {
		return false
	}
	for _, b := range fg.controllers(parents, w) {
		if conds, init, ok := branchCond(parents, b); ok && c.anyCondOn(f, conds, init, r, w) {
			return true
		}
	}
	return false
}

// anyCondOn reports whether a branch's condition depends on r; a
// condition that contains w itself (a loop whose condition is the write)
// does not decide whether w runs.
func (c *checker) anyCondOn(f *lockstate.Func, conds []ast.Node, init ast.Stmt, r, w ast.Node) bool {
	for _, cond := range conds {
		if cond == nil || contains(cond, w) {
			continue
		}
		if c.condOn(f, cond, init, r) {
			return true
		}
	}
	return false
}

// flow returns the control-flow graph of a body, built once.
func (c *checker) flow(f *lockstate.Func) *flowGraph {
	fg, ok := c.flows[f]
	if !ok {
		if g := f.CFG(); g != nil {
			fg = newFlowGraph(g)
		}
		c.flows[f] = fg
	}
	return fg
}

// usesValueOf reports whether expression e mentions a local whose value
// comes from r: defined from an expression that contains r, or from
// another such local (v, _ := m.Load(k); s := v.(*T); ... s.id).
func (c *checker) usesValueOf(f *lockstate.Func, e ast.Node, r ast.Node) bool {
	if c.usesValue(f, e, r, map[types.Object]bool{}) {
		return true
	}
	// A local assigned more than once (v += d, v = w): which ones carry
	// the read where e is, on the control-flow graph (taint.go).
	s, ok := c.carriedAt(f, c.parentsOf(bodyOf(f)), e, r)
	return ok && c.mentions(e, s)
}

func (c *checker) usesValue(f *lockstate.Func, e ast.Node, r ast.Node, seen map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		obj := f.Resolver.Info.Uses[id]
		if obj == nil || seen[obj] || isError(obj.Type()) {
			// An error says whether a step failed, not what the state
			// was: branching on it is error handling, not a check.
			return true
		}
		seen[obj] = true
		if def := f.Resolver.Def(id); def != nil && (c.containsValue(def, r) || c.usesValue(f, def, r, seen)) {
			found = true
		}
		for _, d := range c.multiDefs(f, id) {
			// v, ok := call(): v carries the call's first result, ok
			// its second.
			if d.rhs == r {
				if c.curResults == nil || slices.Contains(c.curResults, d.index) {
					found = true
				}
			} else if c.containsValue(d.rhs, r) || c.usesValue(f, d.rhs, r, seen) {
				found = true
			}
		}
		return !found
	})
	return found
}

var errorType = types.Universe.Lookup("error").Type()

// isError reports whether values of t are errors: error itself, or any
// type with its Error method (tcpip.Error, *os.PathError).
func isError(t types.Type) bool {
	return types.Implements(t, errorType.Underlying().(*types.Interface))
}

// multiDef is one v, ok := call() style definition of a variable: the
// right-hand side and the variable's position on the left.
type multiDef struct {
	rhs   ast.Node
	index int
}

// multiDefs returns the v, ok := call() style definitions of id, which
// Resolver.Def does not track. They are indexed once per body.
func (c *checker) multiDefs(f *lockstate.Func, id *ast.Ident) []multiDef {
	v, ok := f.Resolver.Info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := bodyOf(f)
	defs, ok := c.defs[body]
	if !ok {
		defs = map[*types.Var][]multiDef{}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
				return true
			}
			for k, l := range as.Lhs {
				if lid, ok := l.(*ast.Ident); ok {
					if lv, ok := f.Resolver.Info.ObjectOf(lid).(*types.Var); ok {
						defs[lv] = append(defs[lv], multiDef{ast.Unparen(as.Rhs[0]), k})
					}
				}
			}
			return true
		})
		c.defs[body] = defs
	}
	return defs[v]
}

// returns lists the return statements of a body, not those of the
// function literals in it; indexed once per body.
func (c *checker) returns(f *lockstate.Func) []*ast.ReturnStmt {
	body := bodyOf(f)
	rs, ok := c.rets[body]
	if !ok {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				rs = append(rs, n)
			}
			return true
		})
		c.rets[body] = rs
	}
	return rs
}

func contains(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

func bodyOf(f *lockstate.Func) *ast.BlockStmt {
	if f.Lit != nil {
		return f.Lit.Body
	}
	return f.Decl.Body
}

func fieldKey(v *types.Var) string {
	v = v.Origin()
	pkg := ""
	if v.Pkg() != nil {
		pkg = v.Pkg().Path()
	}
	return pkg + "." + v.Name() + "@" + types.TypeString(v.Type(), nil)
}

// syncMap reports m.Load(k) followed, in a branch that depends on it, by
// m.Store(k, v): two goroutines can both miss and both store.
func (c *checker) syncMap(f *lockstate.Func) {
	var loads []*lockstate.Call
	var parents map[ast.Node]ast.Node
	for _, call := range f.Calls {
		if !isSyncMap(call.Callee) || len(call.Node.Args) == 0 {
			continue
		}
		switch call.Callee.Name() {
		case "Load":
			loads = append(loads, call)
		case "Store":
			for _, load := range loads {
				if !sameMapAndKey(f, load.Node, call.Node) {
					continue
				}
				if parents == nil {
					parents = c.parentsOf(bodyOf(f))
				}
				if c.controlledBy(f, parents, call.Node, load.Node) || c.writesValueOf(f, parents, call.Node, load.Node) {
					m := types.ExprString(call.Node.Fun.(*ast.SelectorExpr).X)
					c.rep.Reportf(call.Node.Pos(), report.Related(load.Node.Pos(), m+".Load here"),
						"check-then-act: %s.Store depends on an earlier %s.Load of the same key; another goroutine can store in between: use %s.LoadOrStore",
						m, m, m)
					break
				}
			}
		}
	}
}

// atomicOp is a load or store of one variable through sync/atomic: a
// method of an atomic type (x.Load(), x.Store(v)) or a function on its
// address (atomic.LoadInt32(&x), atomic.StoreInt32(&x, v)).
type atomicOp struct {
	call   *lockstate.Call
	target lockpath.Path
	store  bool
	value  ast.Expr   // the stored value
	recv   types.Type // the atomic type, for methods; nil for functions
}

func atomicOpOf(f *lockstate.Func, call *lockstate.Call) (atomicOp, bool) {
	fn := call.Callee
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return atomicOp{}, false
	}
	sig := fn.Type().(*types.Signature)
	op := atomicOp{call: call}
	name := fn.Name()
	if sig.Recv() != nil {
		se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
		if !ok {
			return atomicOp{}, false
		}
		op.target, op.recv = f.Resolver.Of(se.X), sig.Recv().Type()
		switch name {
		case "Load":
		case "Store":
			if len(call.Node.Args) != 1 {
				return atomicOp{}, false
			}
			op.store, op.value = true, call.Node.Args[0]
		default:
			return atomicOp{}, false
		}
	} else {
		if len(call.Node.Args) == 0 {
			return atomicOp{}, false
		}
		op.target = f.Resolver.Of(call.Node.Args[0])
		switch {
		case strings.HasPrefix(name, "Load"):
		case strings.HasPrefix(name, "Store") && len(call.Node.Args) == 2:
			op.store, op.value = true, call.Node.Args[1]
		default:
			return atomicOp{}, false
		}
	}
	return op, op.target.Valid()
}

// atomics reports a sync/atomic store that depends on an earlier load of
// the same variable: in a branch or after a guard clause on it
// (CompareAndSwap does both at once), or storing a value computed from it
// (Add does that). Each is atomic; the pair is not. Inside one critical
// section of a lock held exclusively at both, the lock orders them.
func (c *checker) atomics(f *lockstate.Func) {
	var loads []atomicOp
	var parents map[ast.Node]ast.Node
	for _, call := range f.Calls {
		op, ok := atomicOpOf(f, call)
		if !ok {
			continue
		}
		if !op.store {
			loads = append(loads, op)
			continue
		}
		// Only the latest load of the variable counts: a second load (under
		// a lock, after a fast-path check) is the re-check.
		for k := len(loads) - 1; k >= 0; k-- {
			l := loads[k]
			if l.target != op.target {
				continue
			}
			if sameSection(l.call.State, op.call.State) || c.atomicOrdered(f, l, op) {
				break
			}
			if parents == nil {
				parents = c.parentsOf(bodyOf(f))
			}
			x := types.ExprString(ast.Unparen(op.call.Node.Fun).(*ast.SelectorExpr).X)
			loadCall, storeCall := types.ExprString(l.call.Node), types.ExprString(op.call.Node.Fun)
			related := report.Related(l.call.Node.Pos(), loadCall+" here")
			switch {
			case c.memoHit(f, parents, op.call.Node, l.call.Node):
				// if v := x.Load(); v != nil { return v }: a cache. Two
				// goroutines may both fill it, with the same value.
			case c.controlledBy(f, parents, op.call.Node, l.call.Node):
				c.rep.Reportf(op.call.Node.Pos(), related,
					"check-then-act: %s runs only after %s said so, and another goroutine can store in between: use %s",
					storeCall, loadCall, casOf(op, x))
			case c.writesValueOf(f, parents, op.call.Node, l.call.Node):
				fix := casOf(op, x) + " in a loop"
				if add := addOf(f, op, l, x); add != "" {
					fix = add
				}
				c.rep.Reportf(op.call.Node.Pos(), related,
					"check-then-act: %s stores a value computed from %s, and an update another goroutine makes in between is lost: use %s",
					storeCall, loadCall, fix)
			default:
				continue
			}
			break
		}
	}
}

// memoHit reports whether the store runs only after a branch on the load
// whose other way returns what was loaded: the load is a cache lookup, and
// the store fills the cache (if v := x.Load(); v != nil { return v }).
func (c *checker) memoHit(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	fg := c.flow(f)
	if fg == nil {
		return false
	}
	wat, ok := fg.locate(parents, w)
	if !ok {
		return false
	}
	for _, b := range fg.controllers(parents, w) {
		conds, init, ok := branchCond(parents, b)
		if !ok || !c.anyCondOn(f, conds, init, r, w) {
			continue
		}
		for _, ret := range fg.returnsAvoiding(b, wat.block) {
			for _, res := range ret.Results {
				if contains(res, r) || c.usesValueOf(f, res, r) {
					return true
				}
			}
		}
	}
	return false
}

// sameSection reports whether some lock is held exclusively, from one
// acquisition, at both points.
func sameSection(a, b *lockstate.State) bool {
	for _, p := range a.Held() {
		if va, vb := a.Lock(p), b.Lock(p); va.Mode == lockstate.Exclusive && vb.Mode == lockstate.Exclusive && va.Site == vb.Site {
			return true
		}
	}
	return false
}

// casOf names the compare-and-swap that replaces a store.
func casOf(op atomicOp, x string) string {
	if op.recv != nil {
		return x + ".CompareAndSwap"
	}
	name := op.call.Callee.Name()
	return "atomic.CompareAndSwap" + strings.TrimPrefix(name, "Store")
}

// addOf names the Add that replaces a store of load ± delta, or "" when
// the stored value is not that or the type has no Add.
func addOf(f *lockstate.Func, op, load atomicOp, x string) string {
	be, ok := ast.Unparen(op.value).(*ast.BinaryExpr)
	if !ok || (be.Op != token.ADD && be.Op != token.SUB) {
		return ""
	}
	if op.recv != nil {
		if obj, _, _ := types.LookupFieldOrMethod(op.recv, true, nil, "Add"); obj == nil {
			return ""
		}
		return x + ".Add"
	}
	name := strings.TrimPrefix(op.call.Callee.Name(), "Store")
	if name == "Pointer" || name == "Value" {
		return ""
	}
	return "atomic.Add" + name
}

func isSyncMap(fn *types.Func) bool { return locks.MethodOf(fn, "sync", "Map") }

func sameMapAndKey(f *lockstate.Func, a, b *ast.CallExpr) bool {
	sa, ok1 := a.Fun.(*ast.SelectorExpr)
	sb, ok2 := b.Fun.(*ast.SelectorExpr)
	if !ok1 || !ok2 {
		return false
	}
	pa, pb := f.Resolver.Of(sa.X), f.Resolver.Of(sb.X)
	if !pa.Valid() || pa != pb {
		return false
	}
	return types.ExprString(a.Args[0]) == types.ExprString(b.Args[0])
}
