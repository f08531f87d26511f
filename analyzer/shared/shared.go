package shared

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

//go:embed doc.go
var docFile string

// Analyzer is the shared rule.
var Analyzer = &analysis.Analyzer{
	Name:       "shared",
	Doc:        docs.Extract(docFile, "shared"),
	URL:        "https://github.com/guardvet/guardvet/blob/main/docs/rules/shared.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{lockstate.Analyzer},
	ResultType: report.UsedType,
}

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
	// what it does
	readVar, writeVar, readElem, writeElem, atomic bool
	index                                          ast.Expr // the index of an element access
	ret                                            bool     // the implicit access of a named result at a return
	// sub is the part of a struct value used (.f.g), "" for all of it.
	sub string
	// once: in a function run by sync.Once.Do, which runs it once.
	once  bool
	state *lockstate.State
}

func (a *access) write() bool { return a.writeVar || a.writeElem }

type checker struct {
	parents map[ast.Node]ast.Node // of the declaration being checked
	pass    *analysis.Pass
	rep     *report.Reporter
	seen    map[string]bool
}

func run(pass *analysis.Pass) (any, error) {
	ls := pass.ResultOf[lockstate.Analyzer].(*lockstate.Result)
	rep := report.New(pass, ls.Dirs, Category)
	if !ls.Dirs.Config.Shared() {
		return rep.Flush(), nil
	}
	byDecl := map[*ast.FuncDecl][]*lockstate.Func{}
	byObj := map[*types.Func]*lockstate.Func{}
	var decls []*ast.FuncDecl
	for _, f := range ls.Funcs {
		if _, ok := byDecl[f.Decl]; !ok {
			decls = append(decls, f.Decl)
		}
		byDecl[f.Decl] = append(byDecl[f.Decl], f)
		if f.Lit == nil && f.Obj != nil {
			byObj[f.Obj] = f
		}
	}
	c := &checker{pass: pass, rep: rep, seen: map[string]bool{}}
	for _, fd := range decls {
		c.decl(fd, byDecl[fd], byObj)
	}
	return rep.Flush(), nil
}

func (c *checker) decl(fd *ast.FuncDecl, funcs []*lockstate.Func, byObj map[*types.Func]*lockstate.Func) {
	bodies := goroutines.Find(c.pass.TypesInfo, fd)
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
	ctx := map[*ast.FuncLit]lockstate.Context{}
	for _, f := range funcs {
		if f.Lit != nil {
			ctx[f.Lit] = f.Context
		}
	}
	parents := lockstate.Parents(fd)
	c.parents = parents
	outer := func(n ast.Node) *ast.FuncLit {
		for p := parents[n]; p != nil; p = parents[p] {
			if l, ok := p.(*ast.FuncLit); ok {
				return l
			}
		}
		return nil
	}
	byVar := map[*types.Var][]*access{}
	var vars []*types.Var
	add := func(a *access) {
		if _, ok := byVar[a.va.Var]; !ok {
			vars = append(vars, a.va.Var)
		}
		byVar[a.va.Var] = append(byVar[a.va.Var], a)
	}
	for _, f := range funcs {
		for _, va := range f.Vars {
			a := &access{va: va, pos: va.Node.Pos(), at: va.Node.Pos(), state: va.State}
			if !c.place(a, f.Lit, fd, spawnOf, ctx, outer) || !c.classify(a, parents) {
				continue
			}
			add(a)
		}
	}
	// go f(x): the package-level variables f's own body uses run in the
	// goroutine.
	for _, s := range spawns {
		if s.Lit != nil || s.Callee == nil || s.Callee.Pkg() != c.pass.Pkg {
			continue
		}
		if f := byObj[s.Callee.Origin()]; f != nil {
			fparents := lockstate.Parents(f.Decl)
			for _, va := range f.Vars {
				if va.Var.Parent() != va.Var.Pkg().Scope() {
					continue
				}
				a := &access{va: va, pos: va.Node.Pos(), owner: s, state: va.State}
				if c.classify(a, fparents) {
					add(a)
				}
			}
		}
	}
	// Named results: the return writes them (or the caller reads them)
	// while a goroutine that outlives it may still use them.
	sig := c.pass.TypesInfo.Defs[fd.Name].(*types.Func).Type().(*types.Signature)
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		if r.Name() == "" || r.Name() == "_" || byVar[r] == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				a := &access{va: &lockstate.VarAccess{Var: r}, pos: n.Pos(), block: fd.Body, at: n.Pos(), ret: true, readVar: true}
				a.writeVar = len(n.Results) > 0
				add(a)
			}
			return true
		})
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Pos() < vars[j].Pos() })
	for _, v := range vars {
		if skipType(v.Type()) || anyAtomic(byVar[v]) {
			continue
		}
		c.variable(v, byVar[v], spawns)
	}
}

// place finds where an access runs: which goroutine, which body, where.
func (c *checker) place(a *access, lit *ast.FuncLit, fd *ast.FuncDecl, spawnOf map[*ast.FuncLit]*goroutines.Spawn,
	ctx map[*ast.FuncLit]lockstate.Context, outer func(ast.Node) *ast.FuncLit) bool {
	for lit != nil {
		if s := spawnOf[lit]; s != nil {
			a.owner, a.block = s, lit.Body
			return true
		}
		switch ctx[lit] {
		case lockstate.Inline:
			if call, ok := c.parents[lit].(*ast.CallExpr); ok {
				if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil && fn.FullName() == "(*sync.Once).Do" {
					a.once = true
				}
			}
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

// classify says what an access does to its variable; false drops it.
func (c *checker) classify(a *access, parents map[ast.Node]ast.Node) bool {
	va := a.va
	switch va.Use {
	case lockstate.VarWrite:
		a.writeVar = true
	case lockstate.VarAtomic:
		a.atomic = true
	default:
		a.readVar = true
	}
	// Up through the parts of a struct or array value: x.f.g, x.arr[i].
	var part ast.Node = va.Node
	for {
		switch p := parents[part].(type) {
		case *ast.ParenExpr:
			part = p
			continue
		case *ast.SelectorExpr:
			if sel := c.pass.TypesInfo.Selections[p]; p.X == part && sel != nil && sel.Kind() == types.FieldVal && !isPtr(c.pass.TypesInfo.TypeOf(p.X)) {
				a.sub += "." + p.Sel.Name
				part = p
				continue
			}
		case *ast.IndexExpr:
			if _, isArr := c.pass.TypesInfo.TypeOf(p.X).Underlying().(*types.Array); isArr && p.X == part && part != va.Node {
				part = p
				continue
			}
		}
		break
	}
	if c.atomicOperand(va.Node, parents) {
		a.atomic, a.readVar, a.writeVar = true, false, false
		return true
	}
	if u, ok := parents[part].(*ast.UnaryExpr); ok && u.Op == token.AND {
		if a.writeVar {
			// &x handed on: whoever writes through it is not followed yet.
			a.writeVar, a.readVar = false, true
		}
	}
	if a.writeVar && c.methodReceiver(va.Node, parents) {
		// x.m(): what m does to the object is m's business (not followed
		// yet); the variable itself keeps naming it.
		a.writeVar, a.readVar = false, true
	}
	t := va.Var.Type().Underlying()
	if p, ok := t.(*types.Pointer); ok {
		if _, isArr := p.Elem().Underlying().(*types.Array); isArr {
			t = p.Elem().Underlying()
		}
	}
	_, isMap := t.(*types.Map)
	_, isSlice := t.(*types.Slice)
	_, isArr := t.(*types.Array)
	if !isMap && !isSlice && !isArr {
		return true
	}
	var node ast.Node = va.Node
	p := parents[node]
	for {
		if pe, ok := p.(*ast.ParenExpr); ok {
			node, p = pe, parents[pe]
			continue
		}
		break
	}
	switch p := p.(type) {
	case *ast.IndexExpr:
		if p.X != node {
			return true
		}
		a.index = p.Index
		if va.Use == lockstate.VarWrite {
			// m[k] = v, s[i] = v, arr[i].f = v, &s[i] handed on: the
			// element, not the variable (an array's element is part of
			// it: the variable is read).
			a.writeVar, a.writeElem, a.readVar = false, true, isArr
		} else {
			a.readElem = true
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && len(p.Args) > 0 && p.Args[0] == node {
			if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
				switch id.Name {
				case "delete", "clear":
					a.writeElem, a.readVar = true, true
				case "len", "cap":
					if isMap {
						a.readElem = true
					}
				}
				return true
			}
		}
		if isMap && a.readVar {
			a.readElem = true // a map handed on may be read
		}
	case *ast.RangeStmt:
		if p.X == node && a.readVar {
			a.readElem = true
		}
	case *ast.SliceExpr:
		// s[a:b]: reads the header (or, for an array, takes part of it).
	default:
		if isMap && a.readVar {
			a.readElem = true
		}
	}
	return true
}

// atomicOperand reports whether id is inside &x, &x.f or &x[i] handed to
// a sync/atomic function.
func (c *checker) atomicOperand(id *ast.Ident, parents map[ast.Node]ast.Node) bool {
	var n ast.Node = id
	for {
		switch p := parents[n].(type) {
		case *ast.ParenExpr:
			n = p
			continue
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
			call, ok := parents[p].(*ast.CallExpr)
			return p.Op == token.AND && ok && len(call.Args) > 0 && call.Args[0] == p && isAtomicCall(c.pass.TypesInfo, call)
		}
		return false
	}
}

func isPtr(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
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

// methodReceiver reports whether id is the receiver of a method call,
// id.m(...) or id.f.m(...).
func (c *checker) methodReceiver(id *ast.Ident, parents map[ast.Node]ast.Node) bool {
	var n ast.Node = id
	for {
		p := parents[n]
		switch p := p.(type) {
		case *ast.ParenExpr:
			n = p
			continue
		case *ast.SelectorExpr:
			if p.X != n {
				return false
			}
			sel := c.pass.TypesInfo.Selections[p]
			if sel == nil {
				return false
			}
			if sel.Kind() == types.FieldVal {
				n = p // x.f.m(): the method's receiver is part of x
				continue
			}
			call, ok := parents[p].(*ast.CallExpr)
			return ok && call.Fun == p
		}
		return false
	}
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

// pairKind is how two accesses can run at once.
type pairKind uint8

const (
	withParent pairKind = iota
	withInstance
	withSibling
	withReturn
)

type pair struct {
	a, b *access // a runs in the goroutine s
	s    *goroutines.Spawn
	kind pairKind
}

func (c *checker) variable(v *types.Var, accs []*access, spawns []*goroutines.Spawn) {
	for i, s := range spawns {
		var mine []*access
		for _, a := range accs {
			if a.owner == s {
				mine = append(mine, a)
			}
		}
		if len(mine) == 0 {
			continue
		}
		var found []pair
		for _, g := range mine {
			for _, p := range accs {
				if p.owner == s || p.block != s.Body.Block {
					continue
				}
				if p.exit && !s.OutlivesReturn() || !p.exit && !s.Concurrent(p.at) || inPost(v, p.at, s) || nextIteration(v, p.at, s) {
					continue
				}
				k := withParent
				if p.ret {
					k = withReturn
				}
				if c.conflict(g, p, s, k) {
					found = append(found, pair{g, p, s, k})
				}
			}
			if s.Repeats && !declaredIn(v, s) {
				for _, h := range mine {
					if c.conflict(g, h, s, withInstance) {
						found = append(found, pair{g, h, s, withInstance})
					}
				}
			}
			for _, t := range spawns[i+1:] {
				if t.Body != s.Body || s.Ordered(t) {
					continue
				}
				for _, h := range accs {
					if h.owner == t && c.conflict(g, h, s, withSibling) {
						found = append(found, pair{g, h, s, withSibling})
					}
				}
			}
		}
		if len(found) == 0 {
			continue
		}
		// One report per variable and goroutine: the pair with a write in
		// the goroutine first, then the earliest.
		sort.SliceStable(found, func(i, j int) bool {
			x, y := found[i], found[j]
			if x.a.write() != y.a.write() {
				return x.a.write()
			}
			if x.a.pos != y.a.pos {
				return x.a.pos < y.a.pos
			}
			return x.b.pos < y.b.pos
		})
		c.report(v, found[0])
	}
}

// declaredIn reports whether v is new for each instance of s: declared
// in its closure or inside the loop that starts it.
func declaredIn(v *types.Var, s *goroutines.Spawn) bool {
	if s.Lit != nil && s.Lit.Pos() <= v.Pos() && v.Pos() < s.Lit.End() {
		return true
	}
	for _, l := range s.Loops {
		if l.Pos() <= v.Pos() && v.Pos() < l.End() {
			return true
		}
	}
	return false
}

// inPost reports whether pos is in the post statement of a loop around s
// that declares v: for i := 0; i < n; i++ steps the next iteration's i,
// not the one the goroutine captured (Go 1.22).
func inPost(v *types.Var, pos token.Pos, s *goroutines.Spawn) bool {
	for _, l := range s.Loops {
		if f, ok := l.(*ast.ForStmt); ok && f.Init != nil && f.Post != nil &&
			f.Init.Pos() <= v.Pos() && v.Pos() < f.Init.End() && f.Post.Pos() <= pos && pos < f.Post.End() {
			return true
		}
	}
	return false
}

// nextIteration reports whether v is declared inside a loop around s and
// pos comes before the start (or is in it, as its arguments): reached
// again only in the next iteration, where v is a new variable.
func nextIteration(v *types.Var, pos token.Pos, s *goroutines.Spawn) bool {
	for _, l := range s.Loops {
		if l.Pos() <= v.Pos() && v.Pos() < l.End() && pos < s.Node.End() {
			return true
		}
	}
	return false
}

// conflict reports whether a (in goroutine s) and b can race.
func (c *checker) conflict(a, b *access, s *goroutines.Spawn, k pairKind) bool {
	if !a.write() && !b.write() || a.atomic || b.atomic {
		return false
	}
	clash := a.writeVar && (b.readVar || b.writeVar || b.readElem || b.writeElem) ||
		b.writeVar && (a.readVar || a.writeVar || a.readElem || a.writeElem) ||
		a.writeElem && (b.readElem || b.writeElem) ||
		b.writeElem && (a.readElem || a.writeElem)
	if !clash || a.once && b.once {
		return false
	}
	if a.sub != "" && b.sub != "" && !strings.HasPrefix(a.sub+".", b.sub+".") && !strings.HasPrefix(b.sub+".", a.sub+".") {
		return false // different fields of a struct value
	}
	if k == withParent && c.handedOff(b, a, s) {
		return false
	}
	if a.index != nil && b.index != nil && !a.writeVar && !b.writeVar {
		if _, isMap := a.va.Var.Type().Underlying().(*types.Map); !isMap {
			if c.distinct(a.index, b.index, s, k) {
				return false
			}
		}
	}
	if a.state != nil && b.state != nil {
		for _, l := range a.state.Held() {
			if b.state.Lock(l).Mode.Held() {
				return false
			}
		}
	}
	return true
}

// handedOff reports whether the parent's access p comes before a send on
// or close of a channel that the goroutine receives from before its access
// g (source order): the channel orders them.
func (c *checker) handedOff(p, g *access, s *goroutines.Spawn) bool {
	if s.Lit == nil || g.owner != s {
		return false
	}
	recvs := map[string]token.Pos{} // channel -> first receive in the goroutine
	ast.Inspect(s.Lit.Body, func(n ast.Node) bool {
		var ch ast.Expr
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ch = n.X
			}
		case *ast.RangeStmt:
			if _, isChan := c.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Chan); isChan {
				ch = n.X
			}
		}
		if ch != nil {
			k := types.ExprString(ast.Unparen(ch))
			if _, ok := recvs[k]; !ok {
				recvs[k] = n.Pos()
			}
		}
		return true
	})
	found := false
	ast.Inspect(s.Body.Block, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n.Pos() <= p.at {
			return n.End() > p.at // only what follows the access
		}
		var ch ast.Expr
		switch n := n.(type) {
		case *ast.SendStmt:
			ch = n.Chan
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				ch = n.Args[0]
			}
		}
		if ch != nil {
			if r, ok := recvs[types.ExprString(ast.Unparen(ch))]; ok && r < g.pos {
				found = true
			}
		}
		return true
	})
	return found
}

// distinct reports whether two indices name different elements: different
// constants, or, between instances of one goroutine, an index each
// instance has its own of (a parameter or local of the closure, or a
// variable of the loop that starts it).
func (c *checker) distinct(x, y ast.Expr, s *goroutines.Spawn, k pairKind) bool {
	cx, cy := c.pass.TypesInfo.Types[x].Value, c.pass.TypesInfo.Types[y].Value
	if cx != nil && cy != nil {
		return !constant.Compare(cx, token.EQL, cy)
	}
	if k != withInstance {
		return false
	}
	own := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && declaredIn(v, s)
	}
	return own(x) && own(y)
}

func (c *checker) short(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func verb(a *access) string {
	switch {
	case a.ret && a.writeVar:
		return "set"
	case a.ret:
		return "returned"
	case a.writeVar:
		return "written"
	case a.writeElem:
		return "written into"
	case a.readElem:
		return "read from"
	}
	return "read"
}

func (c *checker) report(v *types.Var, p pair) {
	start := c.short(p.s.Node.Pos())
	var other, fix string
	switch p.kind {
	case withParent:
		other = fmt.Sprintf("by the function that started it, at %s, before joining it", c.short(p.b.pos))
		fix = "move that access after the join, give the goroutine its own copy, or lock both"
	case withReturn:
		other = fmt.Sprintf("by the return at %s, which the goroutine can outlive", c.short(p.b.pos))
		fix = "join the goroutine before returning, or have it set a variable of its own"
	case withInstance:
		other = fmt.Sprintf("in another instance of it at %s", c.short(p.b.pos))
		fix = "declare " + v.Name() + " inside the goroutine, or collect results by index or over a channel"
	case withSibling:
		other = fmt.Sprintf("in the goroutine started at %s at %s", c.short(p.b.owner.Node.Pos()), c.short(p.b.pos))
		fix = "give each goroutine its own variable, or collect results by index or over a channel"
	}
	if _, isMap := v.Type().Underlying().(*types.Map); isMap && (p.a.writeElem || p.b.writeElem) {
		fix = "lock the map on both sides, or send the results over a channel to one goroutine that fills it"
	}
	name := v.Name() + p.a.sub
	if len(p.b.sub) < len(p.a.sub) {
		name = v.Name() + p.b.sub // the part both use
	}
	key := fmt.Sprint(v.Pos(), p.s.Node.Pos())
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.rep.Reportf(p.a.pos, report.Related(p.b.pos, name+" "+verb(p.b)+" here"),
		"%s is %s in the goroutine started at %s and %s %s, with no lock, atomic or join ordering the two; %s",
		name, verb(p.a), start, verb(p.b), other, fix)
}
