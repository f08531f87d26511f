package shared

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Parameter numbers of a Use besides the parameters' own positions.
const (
	recvParam = -1 // the receiver
	varParam  = -2 // a package-level variable, named by Var
)

// Use is one place a function reaches with no lock held, through a
// pointer, slice or map parameter (or its receiver), or in a
// package-level variable: what a call of it does there.
type Use struct {
	Param int    // the parameter's position, recvParam or varParam
	Var   string // for varParam: package path "." name
	Path  string // the place from the parameter or variable (see loc)
	Write bool
	// Atomic: through sync/atomic.
	Atomic bool
	// Index is the position of the parameter whose value indexes the
	// last element step, or -1.
	Index int
	// Once: made in a part of the function that runs once per object, past
	// a compare-and-swap of a flag (if !f.CompareAndSwap(false, true) {
	// return }).
	Once bool
	// Lazy: a write of a lazy initialisation (if x.f == nil { x.f = v }
	// at the top of the function). It counts where the function is called,
	// and as a read in its callers' own summaries: a caller may run only
	// on objects already initialised.
	Lazy bool
}

// Table is the package fact of the shared rule: the Uses of the
// package's exported functions and methods, keyed by lockstate.LocalKey
// and sorted. One fact per package, as the engine's EffectsTable: object
// facts of every dependency are copied into every package's pass.
type Table struct {
	facttable.Table[[]Use]
}

func (*Table) AFact() {}

func (t *Table) String() string {
	return t.Format("shared", func(uses []Use) string {
		parts := make([]string, len(uses))
		for i, u := range uses {
			parts[i] = u.String()
		}
		return strings.Join(parts, " ")
	})
}

func (u Use) String() string {
	var who string
	switch u.Param {
	case recvParam:
		who = "recv"
	case varParam:
		who = u.Var
	default:
		who = fmt.Sprintf("p%d", u.Param)
	}
	op := "r"
	if u.Write {
		op = "w"
	}
	if u.Atomic {
		op = "a"
	}
	if u.Once {
		op += "1"
	}
	return op + ":" + who + u.Path
}

// Bounds of a summary: longer paths, and uses beyond the last, are
// dropped (fewer reports, never wrong ones).
const (
	maxSteps = 8
	maxUses  = 64
)

// noSummary are the packages whose functions are not followed: the
// synchronisation they implement is theirs.
func noSummary(pkg *types.Package) bool {
	if pkg == nil {
		return true
	}
	p := pkg.Path()
	switch p {
	case "sync", "sync/atomic", "runtime", "unsafe", "golang.org/x/sync/errgroup":
		return true
	}
	return strings.HasPrefix(p, "runtime/") || strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/runtime")
}

type summaryState struct {
	uses []Use
	busy bool
}

// usesOf returns what a call of fn does (nil: nothing known).
func (c *checker) usesOf(fn *types.Func) []Use {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if noSummary(fn.Pkg()) {
		return nil
	}
	if fn.Pkg() != c.pass.Pkg {
		return c.imported(fn)
	}
	s := c.sums[fn]
	if s != nil {
		return s.uses // nil while busy: recursion
	}
	s = &summaryState{busy: true}
	c.sums[fn] = s
	s.uses = c.summarise(fn)
	s.busy = false
	return s.uses
}

func (c *checker) imported(fn *types.Func) []Use {
	if uses := c.tables.Lookup(fn.Pkg(), lockstate.LocalKey(fn)); uses != nil {
		return *uses
	}
	return nil
}

// summarise computes what fn's body does with no lock held, in its
// parameters' memory and in package-level variables, its callees
// included.
func (c *checker) summarise(fn *types.Func) []Use {
	funcs := c.funcsOf[fn]
	if len(funcs) == 0 {
		return nil
	}
	fd := funcs[0].Decl
	uc := &useCollector{c: c, fd: fd, parents: c.syntax.Tree(fd), params: c.stableParams(fd, fn.Type().(*types.Signature)),
		seen: map[Use]bool{}, once: c.onceSections(fd.Body)}
	for _, f := range funcs {
		if !c.synchronous(f, fd, uc.parents) {
			continue
		}
		uc.vars(f)
		uc.calls(f)
	}
	out := uc.out
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	if len(out) > maxUses {
		out = out[:maxUses]
	}
	return out
}

// stableParams indexes the receiver (recvParam) and parameters of fd that
// the body never assigns: one assigned may name another object after the
// assignment (t = &T{...}), so what is done through it is not followed.
func (c *checker) stableParams(fd *ast.FuncDecl, sig *types.Signature) map[*types.Var]int {
	params := map[*types.Var]int{}
	if r := sig.Recv(); r != nil {
		params[r] = recvParam
	}
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.RangeStmt:
			lhs = []ast.Expr{n.Key, n.Value}
		}
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
					delete(params, v)
				}
			}
		}
		return true
	})
	return params
}

// useCollector gathers the Uses of one function's bodies.
type useCollector struct {
	c       *checker
	fd      *ast.FuncDecl
	parents *astq.Tree
	params  map[*types.Var]int
	once    []ast.Node // the parts that run at most once per object
	seen    map[Use]bool
	out     []Use
}

func (uc *useCollector) add(u Use) {
	if len(steps(u.Path)) > maxSteps || uc.seen[u] {
		return
	}
	uc.seen[u] = true
	uc.out = append(uc.out, u)
}

// paramOf is the index of the parameter e names, or -1.
func (uc *useCollector) paramOf(e ast.Expr) int {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := uc.c.pass.TypesInfo.Uses[id].(*types.Var); ok {
			if i, ok := uc.params[v]; ok && i >= 0 {
				return i
			}
		}
	}
	return -1
}

func (uc *useCollector) inOnce(pos token.Pos) bool {
	for _, n := range uc.once {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// vars adds what a body does, with no lock held, to its parameters'
// memory and to package-level variables.
func (uc *useCollector) vars(f *lockstate.Func) {
	for _, va := range f.Vars {
		if len(va.State.Held()) > 0 {
			continue
		}
		p, isParam := uc.params[va.Var]
		pkgLevel := va.Var.Pkg() != nil && va.Var.Parent() == va.Var.Pkg().Scope()
		if !isParam && !pkgLevel {
			continue
		}
		a := &access{va: va, pos: va.Node.Pos()}
		if !uc.c.classify(a, uc.parents) {
			continue
		}
		must := mustRun(uc.fd.Body, va.Node.Pos())
		lazy := !must && lazyInit(uc.fd.Body, va.Node.Pos())
		for _, l := range a.locs {
			u := Use{Param: p, Path: l.path, Write: l.write && !l.lazy && (must || lazy || l.atomic), Atomic: l.atomic, Index: uc.paramOf(l.index), Once: l.once || uc.inOnce(va.Node.Pos())}
			u.Lazy = u.Write && lazy && !l.atomic
			if pkgLevel {
				u.Param, u.Var = varParam, varKey(va.Var)
			} else if st := steps(l.path); len(st) == 0 || !isDeref(st[0]) {
				continue // the parameter itself: the callee's own variable
			}
			uc.add(u)
		}
	}
}

// calls adds the package-level variables the body's callees use with no
// lock held.
func (uc *useCollector) calls(f *lockstate.Func) {
	for _, call := range f.Calls {
		if call.Deferred || len(call.State.Held()) > 0 || goOrDefer(call.Node, uc.parents) {
			continue
		}
		for _, u := range uc.c.usesOf(call.Callee) {
			if u.Param == varParam {
				u.Index = -1
				u.Once = u.Once || uc.inOnce(call.Node.Pos())
				u.Write = u.Write && (u.Atomic || mustRun(uc.fd.Body, call.Node.Pos()))
				uc.add(u)
			}
		}
	}
}

// onceSections returns the parts of a body that run at most once per
// object: past a top-level if !f.CompareAndSwap(false, true) { return }
// (or a || of it), and in the body of if f.CompareAndSwap(...) {...}
// (or a && of it), f a sync/atomic value or a sync/atomic
// CompareAndSwap function.
func (c *checker) onceSections(body *ast.BlockStmt) []ast.Node {
	var out []ast.Node
	for i, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			continue
		}
		if c.casIn(ifs.Cond, token.LAND, false) {
			out = append(out, ifs.Body)
			continue
		}
		n := len(ifs.Body.List)
		if n == 0 {
			continue
		}
		if _, ret := ifs.Body.List[n-1].(*ast.ReturnStmt); ret && c.casIn(ifs.Cond, token.LOR, true) {
			for _, rest := range body.List[i+1:] {
				out = append(out, rest)
			}
			break
		}
	}
	return out
}

// casIn reports whether cond is a compare-and-swap (negated when neg),
// or an op-chain (a && b, a || b) with one among its operands.
func (c *checker) casIn(cond ast.Expr, op token.Token, neg bool) bool {
	cond = ast.Unparen(cond)
	if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == op {
		return c.casIn(b.X, op, neg) || c.casIn(b.Y, op, neg)
	}
	if neg {
		u, ok := cond.(*ast.UnaryExpr)
		if !ok || u.Op != token.NOT {
			return false
		}
		cond = ast.Unparen(u.X)
	}
	call, ok := cond.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "CompareAndSwap")
}

// mustRun reports whether the code at pos runs on every call of the
// function whose body this is: in a simple statement of the body itself
// (not inside an if, a loop, a switch or a select), with no return
// before it, or in a closure deferred there. A callee's write is in its
// summary only then: a write behind a condition depends on values the
// rule does not follow (an empty reader, a nil field, an identity test),
// and counts as a read.
func mustRun(body *ast.BlockStmt, pos token.Pos) bool {
	for _, st := range body.List {
		if st.Pos() <= pos && pos < st.End() {
			switch st := st.(type) {
			case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.ReturnStmt, *ast.DeclStmt:
				inLit := false
				ast.Inspect(st, func(n ast.Node) bool {
					if l, ok := n.(*ast.FuncLit); ok && l.Pos() <= pos && pos < l.End() {
						inLit = true
					}
					return !inLit
				})
				return !inLit
			case *ast.DeferStmt:
				return true
			}
			return false
		}
		if astq.Contains(st, func(n ast.Node) bool { _, ok := n.(*ast.ReturnStmt); return ok }) {
			return false
		}
	}
	return false
}

// lazyInit reports whether the code at pos is the store of a lazy
// initialisation at the top of the body: if x.f == nil { x.f = v }, with
// no return before it. Its write depends only on the field it writes, so
// two calls at once both see nil and both store: the write counts.
func lazyInit(body *ast.BlockStmt, pos token.Pos) bool {
	for _, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if ok && ifs.Pos() <= pos && pos < ifs.End() {
			cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || cond.Op != token.EQL || ifs.Init != nil {
				return false
			}
			x := cond.X
			if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Name == "nil" {
				x = cond.Y
			} else if id, ok := ast.Unparen(cond.Y).(*ast.Ident); !ok || id.Name != "nil" {
				return false
			}
			want := types.ExprString(x)
			for _, bst := range ifs.Body.List {
				as, ok := bst.(*ast.AssignStmt)
				if !ok || pos < as.Pos() || as.End() <= pos {
					continue
				}
				for _, l := range as.Lhs {
					if types.ExprString(l) == want && l.Pos() <= pos && pos < l.End() {
						return true
					}
				}
			}
			return false
		}
		if st.Pos() <= pos && pos < st.End() {
			return false
		}
		if astq.Contains(st, func(n ast.Node) bool { _, ret := n.(*ast.ReturnStmt); return ret }) {
			return false
		}
	}
	return false
}

// synchronous reports whether a body runs as part of its declaration's
// call: the declaration itself, or closures it calls in place or defers
// (not callbacks it hands to other functions).
func (c *checker) synchronous(f *lockstate.Func, fd *ast.FuncDecl, parents *astq.Tree) bool {
	lit := f.Lit
	for lit != nil {
		if c.calledInCallback(lit, fd, parents) {
			return false
		}
		ctx := c.ctxOf[lit]
		if ctx != lockstate.Inline && ctx != lockstate.Deferred {
			return false
		}
		if call, ok := parents.Parent(lit).(*ast.CallExpr); ok && ast.Unparen(call.Fun) != lit {
			// A callback handed to a function runs when, and under what
			// lock, that function decides (a sync.Once.Do function runs
			// once; controlBuf.executeAndPut runs its f under its own
			// mutex): not counted as the caller's.
			return false
		}
		lit = outerLit(lit, parents)
	}
	return true
}

// calledInCallback reports whether lit is a local closure (f := func()
// {...}) called inside a callback handed to another function: it runs
// where that callback does.
func (c *checker) calledInCallback(lit *ast.FuncLit, fd *ast.FuncDecl, parents *astq.Tree) bool {
	var name *ast.Ident
	switch p := parents.Parent(lit).(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == lit && i < len(p.Lhs) {
				name, _ = p.Lhs[i].(*ast.Ident)
			}
		}
	case *ast.ValueSpec:
		for i, r := range p.Values {
			if r == lit && i < len(p.Names) {
				name = p.Names[i]
			}
		}
	}
	if name == nil {
		return false
	}
	v := c.pass.TypesInfo.ObjectOf(name)
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && v != nil && c.pass.TypesInfo.Uses[id] == v {
			for l := outerLit(call, parents); l != nil; l = outerLit(l, parents) {
				if p, ok := parents.Parent(l).(*ast.CallExpr); ok && ast.Unparen(p.Fun) != l {
					found = true
				}
			}
		}
		return true
	})
	return found
}

func outerLit(n ast.Node, parents *astq.Tree) *ast.FuncLit {
	for _, p := range parents.Ancestry(n) {
		if l, ok := p.(*ast.FuncLit); ok {
			return l
		}
	}
	return nil
}

func varKey(v *types.Var) string { return v.Pkg().Path() + "." + v.Name() }

// lookupVar finds the package-level variable a Use names.
func (c *checker) lookupVar(key string) *types.Var {
	if v, ok := c.varsByKey[key]; ok {
		return v
	}
	var found *types.Var
	i := strings.LastIndex(key, ".")
	if i > 0 {
		path, name := key[:i], key[i+1:]
		if pkg := c.packageByPath(path); pkg != nil {
			found, _ = pkg.Scope().Lookup(name).(*types.Var)
		}
	}
	c.varsByKey[key] = found
	return found
}

func (c *checker) packageByPath(path string) *types.Package {
	if c.pkgs == nil {
		c.pkgs = map[string]*types.Package{}
		var walk func(p *types.Package)
		walk = func(p *types.Package) {
			if _, ok := c.pkgs[p.Path()]; ok {
				return
			}
			c.pkgs[p.Path()] = p
			for _, q := range p.Imports() {
				walk(q)
			}
		}
		walk(c.pass.Pkg)
	}
	return c.pkgs[path]
}

// exportTable exports the Uses of the package's exported functions.
func (c *checker) exportTable() {
	t := &Table{}
	for fn := range c.funcsOf {
		if !fn.Exported() {
			continue
		}
		k := lockstate.LocalKey(fn)
		if k == "" {
			continue
		}
		// A package-level variable an importer cannot name is the
		// package's own business: a race on it is reported where the
		// package itself shares it, not at every caller.
		var uses []Use
		for _, u := range c.usesOf(fn) {
			if u.Param != varParam || token.IsExported(u.Var[strings.LastIndex(u.Var, ".")+1:]) {
				uses = append(uses, u)
			}
		}
		if len(uses) > 0 {
			t.Add(k, uses)
		}
	}
	t.Export(c.pass, t)
}

// calleeLocs maps what a call does through one of its parameters onto the
// variable the argument is reached from: path is the argument's place
// from that variable (with "&" when its address is handed on).
func (c *checker) calleeLocs(a *access, cu callUse, path string) bool {
	uses := c.usesOf(cu.fn)
	if cu.addr {
		path += "&"
	}
	found := false
	for _, u := range uses {
		if u.Param != cu.param {
			continue
		}
		p, ok := normalize(path + u.Path)
		if !ok || len(steps(p)) > maxSteps {
			continue
		}
		if u.Atomic {
			a.atomic = true
			a.locs = append(a.locs, loc{path: p, atomic: true, write: u.Write})
			continue
		}
		var index ast.Expr
		if u.Index >= 0 && u.Index < len(cu.call.Args) {
			index = cu.call.Args[u.Index]
		}
		first := len(a.locs)
		a.addLoc(p, u.Write, index)
		for i := first; i < len(a.locs); i++ {
			a.locs[i].once = u.Once
			a.locs[i].lazy = u.Lazy
		}
		found = true
	}
	if found {
		a.via = c.funcName(cu.fn)
	}
	return found
}

func (c *checker) funcName(fn *types.Func) string {
	k := lockstate.LocalKey(fn)
	if k == "" {
		k = fn.Name()
	}
	if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg {
		k = fn.Pkg().Name() + "." + k
	}
	return k
}
