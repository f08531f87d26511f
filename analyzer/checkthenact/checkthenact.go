package checkthenact

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the checkthenact rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run,
	Requires: []*analysis.Analyzer{config.Analyzer}, Facts: []analysis.Fact{(*FieldOps)(nil)}})

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
	// Decided marks a write that runs only when a read of the same field
	// the function makes itself, under the lock, says so (a branch or
	// guard clause on it): a caller's earlier read of the field does not
	// decide it, so the caller's check is not the one acted on.
	Decided bool `json:",omitempty"`
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
			} else if op.Decided {
				verb = "decides-writes"
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
	decided   bool          // a helper's write decided by its own read (FieldOp.Decided)
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
	// syntax tells what encloses a node: checks look up the statements
	// around a body's events.
	syntax *astq.Syntax
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
	// strict is -config.strict: report the check-then-acts that cannot
	// lose an update too (see lossless.go).
	strict bool
	// fieldValues caches oneValue: the constant every write of a field
	// stores, or "".
	fieldValues map[*types.Var]string
}

func run(p *rule.Pass) {
	pass, ls := p.Pass, p.Engine
	c := &checker{pass: pass, ls: ls, rep: p.Report,
		funcs: map[*types.Func][]*lockstate.Func{}, parts: map[*types.Func]*recvParts{},
		syntax: astq.NewSyntax(pass.Files),
		defs:   map[*ast.BlockStmt]map[*types.Var][]multiDef{}, rets: map[*ast.BlockStmt][]*ast.ReturnStmt{},
		flows: map[*lockstate.Func]*flowGraph{}, callers: map[*types.Func]held{}, ctors: map[*types.Func]bool{}, ignoredFns: map[*types.Func]bool{}, taints: map[taintKey]*taint{}}
	c.ops = summaries.New(pass, c.computeOps)
	c.strict = config.Of(pass).Strict()
	if !ls.Dirs.Active() {
		return
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
	summaries.Export(pass, c.funcs, func(fn *types.Func) analysis.Fact {
		if ops := c.opsOf(fn); ops != nil && len(ops.Ops) > 0 {
			return ops
		}
		return nil
	})
}

// events lists the guarded reads and writes of a body, each tagged with
// its critical section, in source order: its own accesses and what the
// helpers it calls do, with the writes that re-check the field marked.
func (c *checker) events(f *lockstate.Func) []event {
	out := append(c.accessEvents(f), c.helperEvents(f)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].node.Pos() < out[j].node.Pos() })
	c.markRechecks(f, out)
	return out
}

// accessEvents lists a body's own accesses made under one of the field's
// guards.
func (c *checker) accessEvents(f *lockstate.Func) []event {
	var out []event
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
			parents := c.syntax.Tree(f.Body())
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
	return out
}

// helperEvents lists what the helpers a body calls read and write in
// sections they open (or in the caller's, for a helper that expects its
// lock held), rooted at the call's operands.
func (c *checker) helperEvents(f *lockstate.Func) []event {
	var out []event
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
			ev := event{field: op.Field, name: op.Name, sub: op.Sub, base: base, write: op.Write, rechecked: op.Rechecked, decided: op.Decided, internal: op.Internal, results: op.Results,
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
	return out
}

// markRechecks marks the writes that re-check what they act on. A write
// after a read of the same field (the same part, the same map key) in
// the same critical section is a re-check under the lock that
// writes: setPTYTriple looks at ptmx again before it installs, and
// bails out. A read of some other field is not: it does not re-check
// what the decision was based on. The re-read must be on every path
// to the write, after the lock was last taken (or given up and taken
// back): one in a branch the write is not in does not count, wherever
// the branch is (a loop that looks only while busy, a case of a
// switch, one arm of an if).
func (c *checker) markRechecks(f *lockstate.Func, out []event) {
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

		parents := c.syntax.Tree(f.Body())
		if fg := c.flow(f); fg != nil && !fg.reachesAvoiding(parents, w.node, reads, sectionStarts(f, w.lock)) {
			out[i].rechecked = true
		}
	}
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
		evs := c.events(body)
		for k, e := range evs {
			i, ok := params[e.base.Root]
			if !ok {
				continue
			}
			// A map key is an expression of this body, meaningless to a
			// caller: the op is on the whole map.
			sub, _, _ := strings.Cut(e.sub, "[")
			op := FieldOp{Field: e.field, Name: e.name, Sub: sub, Write: e.write, Rechecked: e.rechecked, Decided: e.write && c.decidedHere(c.funcs[fn], body, evs, k),
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
			} else if op.Write {
				// Every write of the summary must re-check (or be decided
				// by a read of its own) for the summary to say so.
				for j := range ops.Ops {
					if o := &ops.Ops[j]; o.Field == op.Field && o.Sub == op.Sub && o.Base.Text == op.Base.Text && o.Write && o.Lock.Text == op.Lock.Text {
						o.Rechecked = o.Rechecked && op.Rechecked
						o.Decided = o.Decided && op.Decided
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
	parents := c.syntax.Tree(f.Body())
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
			// A helper that decides the write from its own read of the
			// field is not acting on this one (unless -config.strict).
			controlled := (c.strict || !w.decided) && c.controlledBy(f, parents, w.node, r.node)
			data := c.writesValueOf(f, parents, w.node, r.node)
			lossless := controlled && !data && !c.strict && c.cannotLose(f, parents, w, r)
			c.curResults = nil
			if !(controlled || data) || lossless || c.heldAcross(f, r, w) {
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

func fieldKey(v *types.Var) string {
	v = v.Origin()
	pkg := ""
	if v.Pkg() != nil {
		pkg = v.Pkg().Path()
	}
	return pkg + "." + v.Name() + "@" + types.TypeString(v.Type(), nil)
}
