package shared

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the shared rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run,
	Facts: []analysis.Fact{(*Table)(nil)}})

// Category is the diagnostic category of this rule.
const Category = "shared"

// access is one use of a shared variable, placed in the goroutine or body
// that runs it.
type access struct {
	va    *lockstate.VarAccess
	pos   token.Pos
	owner *goroutines.Spawn // the goroutine that runs it, nil for the declaration's own body
	block *ast.BlockStmt    // the body it runs in (the owner's closure, or the declaration)
	at    token.Pos         // where it runs in block (a closure called in place counts where it is)
	exit  bool              // in a deferred closure of block: runs at its returns
	// locs are the places it reaches, and what it does there.
	locs   []loc
	atomic bool // through sync/atomic
	ret    bool // the implicit access of a named result at a return
	// indices are the indices of the element steps of its own place, by
	// the length of the path up to their end.
	indices map[int]ast.Expr
	// via names the function called when the access is made by a callee.
	via string
	// once: in a function run by sync.Once.Do, which runs it once.
	once bool
	// inline are the closures run in place that the access is in, each
	// with where in its body it runs, innermost first.
	inline []inlineAt
	state  *lockstate.State
}

// inlineAt is a place in the body of a closure run in place.
type inlineAt struct {
	body *ast.BlockStmt
	at   token.Pos
}

type checker struct {
	parents *astq.Tree // of the declaration being checked
	pass    *analysis.Pass
	dirs    *directives.Result
	rep     *report.Reporter
	seen    map[string]bool
	// funcsOf are the bodies of each declared function (its own and its
	// closures'), ctxOf how each closure runs.
	funcsOf map[*types.Func][]*lockstate.Func
	ctxOf   map[*ast.FuncLit]lockstate.Context
	// Summaries: this package's, and the Tables of dependencies.
	sums      map[*types.Func]*summaryState
	tables    *facttable.Index[[]Use]
	varsByKey map[string]*types.Var
	pkgs      map[string]*types.Package
	// syntax tells what encloses a node of a declaration.
	syntax *astq.Syntax
}

func run(p *rule.Pass) {
	pass, ls := p.Pass, p.Engine
	if !ls.Dirs.Config.Shared() {
		reserveIgnores(pass, ls.Dirs, p.Report)
		return
	}
	c := &checker{pass: pass, dirs: ls.Dirs, rep: p.Report, seen: map[string]bool{},
		funcsOf: map[*types.Func][]*lockstate.Func{}, ctxOf: map[*ast.FuncLit]lockstate.Context{},
		sums: map[*types.Func]*summaryState{}, tables: facttable.NewIndex(pass, func() (analysis.Fact, *facttable.Table[[]Use]) {
			t := &Table{}
			return t, &t.Table
		}),
		varsByKey: map[string]*types.Var{}, syntax: astq.NewSyntax(pass.Files)}
	byDecl := map[*ast.FuncDecl][]*lockstate.Func{}
	var decls []*ast.FuncDecl
	for _, f := range ls.Funcs {
		if _, ok := byDecl[f.Decl]; !ok {
			decls = append(decls, f.Decl)
		}
		byDecl[f.Decl] = append(byDecl[f.Decl], f)
		if f.Obj != nil {
			c.funcsOf[f.Obj] = append(c.funcsOf[f.Obj], f)
		}
		if f.Lit != nil {
			c.ctxOf[f.Lit] = f.Context
		}
	}
	for _, fd := range decls {
		c.decl(fd, byDecl[fd])
	}
	c.exportTable()
}

// declOf returns the declaration of one of the package's functions.
func (c *checker) declOf(fn *types.Func) *ast.FuncDecl {
	if fs := c.funcsOf[fn]; len(fs) > 0 {
		return fs[0].Decl
	}
	return nil
}

func (c *checker) decl(fd *ast.FuncDecl, funcs []*lockstate.Func) {
	bodies := goroutines.FindWith(c.pass.TypesInfo, fd, c.declOf)
	if len(bodies) == 0 {
		return
	}
	spawnOf := map[*ast.FuncLit]*goroutines.Spawn{}
	var spawns []*goroutines.Spawn
	for _, b := range bodies {
		for _, s := range b.Spawns {
			spawns = append(spawns, s)
			if s.Lit != nil {
				spawnOf[s.Lit] = s
			}
		}
	}
	parents := c.syntax.Tree(fd)
	c.parents = parents
	set := &accessSet{byVar: map[*types.Var][]*access{}}
	c.bodyAccesses(fd, funcs, spawnOf, parents, set)
	c.spawnedAccesses(spawns, parents, set)
	c.resultAccesses(fd, funcs[0].Obj, set)
	sort.Slice(set.vars, func(i, j int) bool { return srcpos.Less(c.pass.Fset, set.vars[i].Pos(), set.vars[j].Pos()) })
	for _, v := range set.vars {
		if skipType(v.Type()) {
			continue
		}
		// A variable some code accesses with sync/atomic: only a plain
		// access of the very place an atomic one reaches is reported.
		c.variable(v, set.byVar[v], spawns, anyAtomic(set.byVar[v]))
	}
}

// accessSet collects a declaration's accesses by variable, the variables
// in the order first seen.
type accessSet struct {
	byVar map[*types.Var][]*access
	vars  []*types.Var
}

func (s *accessSet) add(a *access) {
	if _, ok := s.byVar[a.va.Var]; !ok {
		s.vars = append(s.vars, a.va.Var)
	}
	s.byVar[a.va.Var] = append(s.byVar[a.va.Var], a)
}

// bodyAccesses adds the uses of variables in the declaration's bodies, and
// of the package-level variables its callees use.
func (c *checker) bodyAccesses(fd *ast.FuncDecl, funcs []*lockstate.Func, spawnOf map[*ast.FuncLit]*goroutines.Spawn, parents *astq.Tree, set *accessSet) {
	outer := func(n ast.Node) *ast.FuncLit { return outerLit(n, parents) }
	for _, f := range funcs {
		for _, va := range f.Vars {
			a := &access{va: va, pos: va.Node.Pos(), at: va.Node.Pos(), state: va.State}
			if !c.place(a, f.Lit, fd, spawnOf, outer) || !c.classify(a, parents) {
				continue
			}
			set.add(a)
		}
		for _, call := range f.Calls {
			if call.Deferred || goOrDefer(call.Node, parents) {
				continue
			}
			for _, u := range c.usesOf(call.Callee) {
				if u.Param != varParam {
					continue
				}
				v := c.lookupVar(u.Var)
				if v == nil {
					continue
				}
				a := &access{va: &lockstate.VarAccess{Var: v}, pos: call.Node.Pos(), at: call.Node.Pos(), state: call.State, via: c.funcName(call.Callee)}
				if !c.place(a, f.Lit, fd, spawnOf, outer) {
					continue
				}
				c.useLoc(a, u, "", nil)
				set.add(a)
			}
		}
	}
}

// spawnedAccesses adds what a function started as a goroutine (go f(x),
// g.Go(f)) does, in the goroutine, through its arguments and to
// package-level variables.
func (c *checker) spawnedAccesses(spawns []*goroutines.Spawn, parents *astq.Tree, set *accessSet) {
	for _, s := range spawns {
		if s.Lit != nil || s.Callee == nil {
			continue
		}
		var call *ast.CallExpr
		if g, ok := s.Node.(*ast.GoStmt); ok {
			call = g.Call
		}
		for _, u := range c.usesOf(s.Callee) {
			a := &access{pos: s.Node.Pos(), owner: s, via: c.funcName(s.Callee)}
			if u.Param == varParam {
				v := c.lookupVar(u.Var)
				if v == nil {
					continue
				}
				a.va = &lockstate.VarAccess{Var: v}
				c.useLoc(a, u, "", nil)
				set.add(a)
				continue
			}
			if call != nil && c.spawnedArg(a, u, call, parents) {
				set.add(a)
			}
		}
	}
}

// spawnedArg fills a, the goroutine's use u of one of the go call's
// arguments, and reports whether anything of it is the goroutine's: the
// argument itself, and what is read to reach it, is evaluated by the go
// statement, in the parent.
func (c *checker) spawnedArg(a *access, u Use, call *ast.CallExpr, parents *astq.Tree) bool {
	var arg ast.Expr
	switch {
	case u.Param == recvParam:
		if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if sel := c.pass.TypesInfo.Selections[se]; sel != nil && sel.Kind() == types.MethodVal && len(sel.Index()) == 1 {
				arg = se.X
			}
		}
	case u.Param < len(call.Args):
		arg = call.Args[u.Param]
	}
	v, path, ok := c.argPlace(arg, parents)
	if !ok {
		return false
	}
	a.va = &lockstate.VarAccess{Var: v}
	p, ok := normalize(path + u.Path)
	if !ok {
		return false
	}
	var index ast.Expr
	if u.Index >= 0 && u.Index < len(call.Args) {
		index = call.Args[u.Index]
	}
	c.useLoc(a, u, p, index)
	base := strings.TrimSuffix(path, "&")
	kept := a.locs[:0]
	for _, l := range a.locs {
		if len(l.path) > len(base) || l.atomic {
			kept = append(kept, l)
		}
	}
	a.locs = kept
	return len(a.locs) > 0
}

// resultAccesses adds the returns of a declaration with named results
// that some goroutine uses: the return writes them (or the caller reads
// them) while a goroutine that outlives it may still use them.
func (c *checker) resultAccesses(fd *ast.FuncDecl, fn *types.Func, set *accessSet) {
	sig := fn.Type().(*types.Signature)
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		if r.Name() == "" || r.Name() == "_" || set.byVar[r] == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				// return x, err with err the named result itself
				// reads err and stores it back where it is: no write
				// (the compiler leaves the store out).
				write := len(n.Results) > 0
				if len(n.Results) == sig.Results().Len() {
					if id, ok := ast.Unparen(n.Results[i]).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == r {
						write = false
					}
				}
				a := &access{va: &lockstate.VarAccess{Var: r}, pos: n.Pos(), block: fd.Body, at: n.Pos(), ret: true}
				a.addLoc("", write, nil)
				set.add(a)
			}
			return true
		})
	}
}

// useLoc adds a callee's Use to an access, at path (the Use's own path
// when empty).
func (c *checker) useLoc(a *access, u Use, path string, index ast.Expr) {
	if path == "" {
		path = u.Path
	}
	if u.Atomic {
		a.atomic = true
		a.locs = append(a.locs, loc{path: path, atomic: true, write: u.Write})
		return
	}
	first := len(a.locs)
	a.addLoc(path, u.Write, index)
	for i := first; i < len(a.locs); i++ {
		a.locs[i].once = u.Once
	}
}

// argPlace finds the variable an argument of a go statement's call is
// reached from, and its place from it ("&" at the end for an address).
func (c *checker) argPlace(arg ast.Expr, parents *astq.Tree) (*types.Var, string, bool) {
	if arg == nil {
		return nil, "", false
	}
	e := ast.Unparen(arg)
	addr := false
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e, addr = ast.Unparen(u.X), true
	}
	root := e
	for {
		switch x := root.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				if _, isPkg := c.pass.TypesInfo.Uses[id].(*types.PkgName); isPkg {
					root = x.Sel
					continue
				}
			}
			root = ast.Unparen(x.X)
			continue
		case *ast.IndexExpr:
			root = ast.Unparen(x.X)
			continue
		case *ast.StarExpr:
			root = ast.Unparen(x.X)
			continue
		}
		break
	}
	id, ok := root.(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil, "", false
	}
	top, path, _, _ := c.chain(id, parents)
	if ast.Unparen(top) != e {
		return nil, "", false
	}
	if addr {
		path += "&"
	}
	return v, path, true
}

// place finds where an access runs: which goroutine, which body, where.
func (c *checker) place(a *access, lit *ast.FuncLit, fd *ast.FuncDecl, spawnOf map[*ast.FuncLit]*goroutines.Spawn,
	outer func(ast.Node) *ast.FuncLit) bool {
	for lit != nil {
		if s := spawnOf[lit]; s != nil {
			a.owner, a.block = s, lit.Body
			return true
		}
		switch c.ctxOf[lit] {
		case lockstate.Inline:
			if call, ok := c.parents.Parent(lit).(*ast.CallExpr); ok {
				if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil && fn.FullName() == "(*sync.Once).Do" {
					a.once = true
				}
			}
			a.inline = append(a.inline, inlineAt{lit.Body, a.at})
		case lockstate.Deferred:
			a.exit = true
		default:
			// A closure run at a time not known here (t.Run's, a
			// callback's): a body of its own, sequential within itself,
			// for the goroutines it starts.
			a.block = lit.Body
			return true
		}
		a.at = lit.Pos()
		lit = outer(lit)
	}
	a.block = fd.Body
	return true
}

// classify says what an access does to its variable: the places it
// reaches (its own and, through a call, its callee's); false drops it.
func (c *checker) classify(a *access, parents *astq.Tree) bool {
	va := a.va
	info := c.pass.TypesInfo
	top, path, index, indices := c.chain(va.Node, parents)
	a.indices = indices
	if path != "" && skipType(info.TypeOf(top)) {
		return false // a lock, an atomic value: synchronisation
	}
	if c.guarded(va.Var) {
		return false // a guarded variable: guardedby checks it
	}
	if se, ok := top.(*ast.SelectorExpr); ok && path != "" {
		if f, ok := info.Uses[se.Sel].(*types.Var); ok && f.IsField() && c.guarded(f) {
			return false // a guarded field: guardedby checks it
		}
	}
	if va.Kind == lockstate.VarAtomic || c.atomicOperand(va.Node, parents) {
		a.atomic = true
		a.locs = append(a.locs, loc{path: path, atomic: true, write: c.atomicWrite(top, parents)})
		return true
	}
	t := info.TypeOf(top)
	cu := c.useOf(top, parents)
	switch cu.kind {
	case uWrite:
		a.addLoc(path, true, index)
		return true
	case uRange:
		if st := elemStep(t); st != "" && (st == "{}" || !cu.keysOnly) {
			a.addLoc(path+st, false, nil)
			return true
		}
	case uBuiltin:
		st := elemStep(t)
		switch {
		case st != "" && (cu.name == "delete" || cu.name == "clear" || cu.name == "copy"):
			a.addLoc(path+st, true, nil)
			return true
		case st == "{}" && (cu.name == "len" || cu.name == "cap"):
			a.addLoc(path+st, false, nil)
			return true
		}
	case uCall:
		if c.calleeLocs(a, cu, path) {
			a.addLoc(path, false, nil)
			return true
		}
	}
	a.addLoc(path, false, index)
	if elemStep(t) == "{}" && cu.kind != uBuiltin {
		a.addLoc(path+"{}", false, nil) // a map handed on, copied or compared may be read
	}
	return true
}

// atomicWrite reports whether &top is handed to a sync/atomic function
// that writes (anything but Load); false when not known.
func (c *checker) atomicWrite(top ast.Expr, parents *astq.Tree) bool {
	p, _ := parents.Up(top)
	u, ok := p.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	p, _ = parents.Up(u)
	call, ok := p.(*ast.CallExpr)
	if !ok || !isAtomicCall(c.pass.TypesInfo, call) {
		return false
	}
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	return !strings.HasPrefix(fn.Name(), "Load")
}

// atomicOperand reports whether id is inside &x, &x.f or &x[i] handed to
// a sync/atomic function.
func (c *checker) atomicOperand(id *ast.Ident, parents *astq.Tree) bool {
	var n ast.Node = id
	for {
		p, up := parents.Up(n)
		n = up // n itself, or the outermost parenthesis around it
		switch p := p.(type) {
		case *ast.SelectorExpr:
			if p.X == n {
				n = p
				continue
			}
		case *ast.IndexExpr:
			if p.X == n {
				n = p
				continue
			}
		case *ast.StarExpr:
			n = p
			continue
		case *ast.UnaryExpr:
			call, ok := parents.Parent(p).(*ast.CallExpr)
			return p.Op == token.AND && ok && len(call.Args) > 0 && call.Args[0] == p && isAtomicCall(c.pass.TypesInfo, call)
		}
		return false
	}
}

// guarded reports whether a variable or field has a guard directive:
// guardedby checks its accesses, and reports a race on it once.
func (c *checker) guarded(v *types.Var) bool {
	return c.dirs.Guard(v).Guards()
}

// isAtomicCall reports whether call is to a sync/atomic function (or the
// runtime's own atomics).
func isAtomicCall(info *types.Info, call *ast.CallExpr) bool {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync/atomic", "internal/runtime/atomic", "runtime/internal/atomic":
		return true
	}
	return false
}

// anyAtomic: a variable some code accesses through sync/atomic is taken
// to be synchronised by those atomics, its other parts published through
// them (a flag stored after the data it guards).
func anyAtomic(accs []*access) bool {
	for _, a := range accs {
		if a.atomic {
			return true
		}
	}
	return false
}

// skipType: synchronisation values are meant to be shared.
func skipType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() {
		case "sync", "sync/atomic", "golang.org/x/sync/errgroup", "context":
			return true
		}
	}
	return false
}

const (
	withParent pairKind = iota
	withInstance
	withSibling
	withReturn
)
