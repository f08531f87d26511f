package checkthenact

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

//go:embed doc.go
var docFile string

// Analyzer is the checkthenact rule.
var Analyzer = &analysis.Analyzer{
	Name:       "checkthenact",
	Doc:        docs.Extract(docFile, "checkthenact"),
	URL:        "https://github.com/guardvet/guardvet#checkthenact",
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
	Base      directives.LockRef
	Write     bool
	Rechecked bool // a write preceded by a read of the field in the same critical section
}

// FieldOps summarises the guarded fields a function touches under locks it
// takes itself: lockedPTMX reads s.ptmx, setPTYTriple writes it.
type FieldOps struct{ Ops []FieldOp }

func (*FieldOps) AFact() {}

func (f *FieldOps) String() string {
	var parts []string
	for _, op := range f.Ops {
		verb := "reads"
		if op.Write {
			verb = "writes"
			if op.Rechecked {
				verb = "rechecks-writes"
			}
		}
		parts = append(parts, verb+" "+op.Base.Text+"."+op.Name)
	}
	return "fieldops(" + strings.Join(parts, ", ") + ")"
}

// event is a read or write of one guarded field instance in one critical
// section of a function body.
type event struct {
	field     string
	name      string
	base      lockpath.Path
	write     bool
	rechecked bool
	section   token.Pos // where the lock was taken (or the helper call)
	node      ast.Node  // the access, or the helper call
	helper    string
}

type checker struct {
	pass  *analysis.Pass
	ls    *lockstate.Result
	rep   *report.Reporter
	funcs map[*types.Func][]*lockstate.Func
	ops   *lockstate.Summaries[FieldOps, *FieldOps]
}

func run(pass *analysis.Pass) (any, error) {
	ls := pass.ResultOf[lockstate.Analyzer].(*lockstate.Result)
	c := &checker{pass: pass, ls: ls, rep: report.New(pass, ls.Dirs, Category),
		funcs: map[*types.Func][]*lockstate.Func{}}
	c.ops = lockstate.NewSummaries(pass, c.computeOps)
	if !ls.Dirs.Active() {
		return c.rep.Flush(), nil
	}
	c.funcs = ls.Bodies()
	for _, f := range ls.Funcs {
		c.check(f)
		c.syncMap(f)
	}
	var fns []*types.Func
	for fn := range c.funcs {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
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
			out = append(out, event{field: fieldKey(acc.Var), name: acc.Var.Name(), base: acc.Base, write: acc.Write,
				section: v.Site, node: acc.Node})
			break
		}
	}
	for _, call := range f.Calls {
		ops := c.opsOf(call.Callee)
		if ops == nil {
			continue
		}
		for _, op := range ops.Ops {
			base := f.RefAtCall(c.ls.Dirs, op.Base, call.Node, call.Callee)
			if !base.Valid() {
				continue
			}
			out = append(out, event{field: op.Field, name: op.Name, base: base, write: op.Write, rechecked: op.Rechecked,
				section: call.Node.Pos(), node: call.Node, helper: types.ExprString(call.Node.Fun)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].node.Pos() < out[j].node.Pos() })
	// A write after a read of the same object's guarded state in the same
	// section is a re-check under the lock that writes: setPTYTriple looks
	// at attachClosed and ptmx before it installs, and bails out.
	for i := range out {
		if !out[i].write {
			continue
		}
		for j := 0; j < i; j++ {
			if !out[j].write && out[j].section == out[i].section && out[j].base == out[i].base {
				out[i].rechecked = true
			}
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
	params := lockstate.ParamIndex(sig)
	entry := c.funcs[fn][0].Entry
	ops := &FieldOps{}
	seen := map[string]bool{}
	for _, body := range c.funcs[fn] {
		for _, e := range c.events(body) {
			i, ok := params[e.base.Root]
			if !ok {
				continue
			}
			// Only sections the function opens itself: a lock held on
			// entry (a //guard:holds function) is the caller's section.
			if entry.Lock(lockOfSection(body, e.section)).Mode.Held() || (body.Decl != nil && e.section == body.Decl.Name.Pos()) {
				continue // held on entry (by contract): the caller's section
			}
			op := FieldOp{Field: e.field, Name: e.name, Write: e.write, Rechecked: e.rechecked,
				Base: directives.LockRef{Kind: directives.Param, Param: i, Sel: e.base.Sel, Text: e.base.String()}}
			key := op.Field + op.Base.Text + map[bool]string{true: "w", false: "r"}[op.Write]
			if !seen[key] {
				seen[key] = true
				ops.Ops = append(ops.Ops, op)
			} else if op.Write && !op.Rechecked {
				for k := range ops.Ops {
					if ops.Ops[k].Field == op.Field && ops.Ops[k].Base.Text == op.Base.Text && ops.Ops[k].Write {
						ops.Ops[k].Rechecked = false
					}
				}
			}
		}
	}
	return ops
}

// lockOfSection finds the lock taken at a section's site, so that a
// section opened by the caller can be told apart.
func lockOfSection(f *lockstate.Func, site token.Pos) lockpath.Path {
	for _, op := range f.LockOps {
		if op.Node.Pos() == site {
			return op.Lock
		}
	}
	return lockpath.Path{}
}

// check reports writes that act on a read from an earlier section.
func (c *checker) check(f *lockstate.Func) {
	evs := c.events(f)
	if len(evs) < 2 {
		return
	}
	parents := parentMap(bodyOf(f))
	for i, w := range evs {
		if !w.write || w.rechecked {
			continue
		}
		for _, r := range evs[:i] {
			if r.write || r.field != w.field || r.base != w.base || r.section == w.section {
				continue
			}
			if !c.dependsOn(f, parents, w.node, r.node) {
				continue
			}
			where := ""
			if r.helper != "" {
				where = " (in " + r.helper + ")"
			}
			p := c.pass.Fset.Position(r.node.Pos())
			shownField := w.base.Local(c.pass.Pkg) + "." + w.name
			c.rep.Reportf(w.node.Pos(), report.Related(r.node.Pos(), shownField+" read here, in an earlier critical section"),
				"check-then-act: %s was read at line %d%s and the lock released; this write, in a later critical section, depends on that read, so two callers can both act on the old value: re-check %s under the lock that writes, or keep check and write in one critical section",
				shownField, p.Line, where, shownField)
			break
		}
	}
}

// dependsOn reports whether node w sits in a branch whose condition uses
// the read r, directly or through a local assigned from it.
func (c *checker) dependsOn(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	return c.inBranchOn(f, parents, w, r)
}

// afterGuardClause reports whether w follows an if statement that leaves
// (return, break, ...) on a condition using r: if v, ok := m.Load(k); ok
// { return v }. Used only for sync.Map, whose Load result is the check;
// for helpers, such a clause is usually an error check.
func (c *checker) afterGuardClause(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	for n := w; n != nil; n = parents[n] {
		block, ok := parents[n].(*ast.BlockStmt)
		if !ok {
			continue
		}
		for _, stmt := range block.List {
			if stmt.Pos() >= n.Pos() {
				break
			}
			ifs, ok := stmt.(*ast.IfStmt)
			if !ok || !terminates(ifs.Body) {
				continue
			}
			if contains(ifs.Cond, r) || (ifs.Init != nil && contains(ifs.Init, r)) || c.usesValueOf(f, ifs.Cond, r) {
				return true
			}
		}
	}
	return false
}

// inBranchOn reports whether w sits in a branch (if, switch or loop body)
// whose condition uses r.
func (c *checker) inBranchOn(f *lockstate.Func, parents map[ast.Node]ast.Node, w, r ast.Node) bool {
	for n := parents[w]; n != nil; n = parents[n] {
		var cond ast.Node
		var init ast.Stmt
		switch s := n.(type) {
		case *ast.IfStmt:
			cond, init = s.Cond, s.Init
		case *ast.SwitchStmt:
			cond, init = s.Tag, s.Init
		case *ast.ForStmt:
			cond, init = s.Cond, s.Init
		default:
			continue
		}
		if cond == nil || contains(cond, w) {
			continue
		}
		if contains(cond, r) || (init != nil && contains(init, r)) || c.usesValueOf(f, cond, r) {
			return true
		}
	}
	return false
}

// usesValueOf reports whether expression e mentions a local whose defining
// expression contains r.
func (c *checker) usesValueOf(f *lockstate.Func, e ast.Node, r ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		if def := f.Resolver.Def(id); def != nil && contains(def, r) {
			found = true
		}
		for _, rhs := range multiDefs(f, id) {
			if contains(rhs, r) {
				found = true
			}
		}
		return !found
	})
	return found
}

// multiDefs returns the right-hand side of v, ok := call() style
// definitions of id, which Resolver.Def does not track.
func multiDefs(f *lockstate.Func, id *ast.Ident) []ast.Node {
	v, ok := f.Resolver.Info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var out []ast.Node
	ast.Inspect(bodyOf(f), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			return true
		}
		for _, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && f.Resolver.Info.ObjectOf(lid) == v {
				out = append(out, as.Rhs[0])
			}
		}
		return true
	})
	return out
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

func parentMap(root ast.Node) map[ast.Node]ast.Node {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return parents
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
					parents = parentMap(bodyOf(f))
				}
				if c.inBranchOn(f, parents, call.Node, load.Node) || c.afterGuardClause(f, parents, call.Node, load.Node) {
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

func isSyncMap(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Map"
}

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

// terminates reports whether a block ends by leaving: return, panic,
// break, continue or goto.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}
