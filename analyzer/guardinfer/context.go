package guardinfer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// The concurrency context of an access: an object allocated in a function
// is reachable from that function alone until it is shared. Accesses
// before then, and after every goroutine it was handed to is joined, run
// in one goroutine, whatever the locks: they are neither evidence nor
// reported.
//
// An object held in a local v is shared, for good, from the first
// statement (in the control-flow graph) that
//   - stores v where others can reach it: assigns it (or a value built
//     from it) to anything but its own fields, or passes it to a call whose
//     result goes anywhere but a local or v's own fields;
//   - sends it on a channel;
//   - captures it in a closure or a method value (the callback may run on
//     another goroutine later), other than a goroutine joined below.
//
// Stores among the function's own new objects (one stored into another)
// share none of them: they form a group that is shared when any member is
// (groups.go).
//
// Passing v to a call is not sharing (a logger, a test hook, an init
// helper): the engine's own freshness is stricter, and this rule keeps
// constructors that log their object before starting it silent.
// A goroutine the function starts with v (go, errgroup.Go, WaitGroup.Go,
// AfterFunc: package goroutines) shares it only while it may run; after
// its join (wg.Wait, a receive from its done channel, g.Wait) the object
// is private again, unless the goroutine itself stores it somewhere.

// declContext is the concurrency context of one function declaration.
type declContext struct {
	info   *types.Info
	fd     *ast.FuncDecl
	allocs map[*types.Var]bool // locals that only ever hold new objects
	// parts are locals that only ever hold the address of a part of one
	// such object (s := &c.shards[i]), with that object's local.
	parts  map[*types.Var]*types.Var
	g      *cfg.CFG
	nodes  []ast.Node
	spawns []*goroutines.Spawn // of the declaration's own body
	declOf func(*types.Func) *ast.FuncDecl
	// helpers are the locals of the body that are only ever called
	// (localHelper).
	helpers map[types.Object]*ast.FuncLit
	shared  map[sharedKey]map[ast.Node]bool // per local and field: the nodes after it is shared for good
	// group maps a new object to those it is stored into or holds
	// (groups.go), computed on first use.
	group map[*types.Var][]*types.Var
}

// contexts computes declContexts on demand.
type contexts struct {
	info    *types.Info
	effects map[*types.Func]*lockstate.Effects
	decls   map[*ast.FuncDecl]*declContext
	// declOf finds the package's function declarations, so that a go
	// f(x) is joined by what f's body signals (close(c.done)).
	declOf func(*types.Func) *ast.FuncDecl
	// touched and busy memoise touchedBy.
	touched map[*types.Func]fieldSet
	busy    map[*types.Func]bool
}

func newContexts(info *types.Info, effects map[*types.Func]*lockstate.Effects) *contexts {
	return &contexts{info: info, effects: effects, decls: map[*ast.FuncDecl]*declContext{}}
}

// private reports whether, at pos in the body of f, the object in v is
// reachable from this goroutine alone, as far as its field field goes
// (nil: any field): an object handed on only as method values (v.m) or
// to go v.m() is still private for the fields those methods never reach
// (touched.go).
func (cs *contexts) private(f *lockstate.Func, v *types.Var, field *types.Var, pos token.Pos) bool {
	if f == nil || v == nil || f.Decl == nil || f.Decl.Body == nil {
		return false
	}
	if f.Lit != nil {
		// A closure run in place (called where it is written, by a
		// synchronous callback, or through a local only ever called):
		// private where it runs.
		if f.Context != lockstate.Inline {
			return false
		}
		dc := cs.decl(f.Decl)
		at := dc.helperCalls(f.Lit)
		if at == nil {
			at = []token.Pos{f.Lit.Pos()}
		}
		for _, p := range at {
			if !cs.privateAt(f.Decl, v, field, p) {
				return false
			}
		}
		return true
	}
	if f.Context != lockstate.Declared {
		return false
	}
	return cs.privateAt(f.Decl, v, field, pos)
}

// privateAt is private for a position in the declaration's own body.
func (cs *contexts) privateAt(fd *ast.FuncDecl, v *types.Var, field *types.Var, pos token.Pos) bool {
	if (v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End()) && !namedResult(fd, v) {
		return false // not a local of this body, nor a named result
	}
	dc := cs.decl(fd)
	if o := dc.parts[v]; o != nil && !dc.allocs[v] {
		// A part of a new object, through a local pointer: private
		// while the object is and the pointer is not handed on.
		dc.graph()
		n := dc.nodeAt(pos)
		return n != nil && !cs.sharedAt(dc, v, field)[n] && cs.privateAt(fd, o, nil, pos)
	}
	if !dc.allocs[v] {
		return false
	}
	dc.graph()
	n := dc.nodeAt(pos)
	if n == nil || cs.sharedAt(dc, v, field)[n] {
		return false
	}
	for _, s := range dc.spawns {
		if !dc.spawnUsesGroup(s, v) {
			continue
		}
		if m := dc.receiverOnly(s, v); m != nil && !cs.touches([]*types.Func{m}, field) && !dc.spawnUsesOtherMember(s, v) {
			continue // go v.run(): run never reaches field
		}
		if s.Concurrent(pos) {
			return false
		}
		inStart := s.Node.Pos() <= pos && pos < s.Node.End()
		if n.Pos() <= s.Node.Pos() && s.Node.End() <= n.End() && !inStart {
			// The start's own statement, outside the start (its
			// arguments run before it): the rest, such as the store in
			// t.timer = time.AfterFunc(d, t.flush), runs with the
			// goroutine started.
			return false
		}
	}
	return true
}

// withOwnGoroutine reports whether, at pos in the body of f, a goroutine
// that f started with the object in v may be running: the concurrent
// region of a start (package goroutines) that hands it v, and can reach
// its field field (nil: any).
func (cs *contexts) withOwnGoroutine(f *lockstate.Func, v *types.Var, field *types.Var, pos token.Pos) bool {
	if f == nil || f.Lit != nil || f.Context != lockstate.Declared || v == nil || f.Decl.Body == nil {
		return false
	}
	dc := cs.decl(f.Decl)
	dc.graph()
	for _, s := range dc.spawns {
		if !dc.spawnUsesGroup(s, v) || !s.Concurrent(pos) {
			continue
		}
		if m := dc.receiverOnly(s, v); m != nil && !cs.touches([]*types.Func{m}, field) && !dc.spawnUsesOtherMember(s, v) {
			continue // go v.run(): run never reaches field
		}
		return true
	}
	return false
}

// accessRoot is the local an access x.f is made on, when f is part of the
// object x holds (not reached through another pointer).
func accessRoot(info *types.Info, se *ast.SelectorExpr) *types.Var {
	sel := info.Selections[se]
	if sel == nil || !ownPath(sel) {
		return nil
	}
	return ownRoot(info, se.X)
}

// ownRoot is the local variable whose object x is part of: x itself, or a
// struct-valued field of it (v.inner), never through a pointer field.
func ownRoot(info *types.Info, x ast.Expr) *types.Var {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, _ := info.Uses[e].(*types.Var)
			if v == nil || v.IsField() {
				return nil
			}
			return v
		case *ast.SelectorExpr:
			sel := info.Selections[e]
			if sel == nil || sel.Kind() != types.FieldVal || !ownPath(sel) || astq.IsPointer(info.TypeOf(e)) {
				return nil
			}
			x = e.X
		default:
			return nil
		}
	}
}

func (cs *contexts) decl(fd *ast.FuncDecl) *declContext {
	if dc, ok := cs.decls[fd]; ok {
		return dc
	}
	dc := &declContext{info: cs.info, fd: fd, declOf: cs.declOf, shared: map[sharedKey]map[ast.Node]bool{}}
	cs.decls[fd] = dc
	dc.allocs, dc.parts = cs.findAllocs(fd)
	return dc
}

// graph builds the body's cfg and goroutine starts, the first time an
// access on one of its new objects asks.
func (dc *declContext) graph() {
	if dc.g != nil {
		return
	}
	dc.g = flowgraph.New(dc.info, dc.fd.Body)
	for _, blk := range dc.g.Blocks {
		dc.nodes = append(dc.nodes, blk.Nodes...)
	}
	for _, b := range goroutines.FindWith(dc.info, dc.fd, dc.declOf) {
		if b.Lit == nil {
			dc.spawns = b.Spawns
		}
	}
}

// findAllocs returns the locals of fd every assignment of which is a new
// object: &T{...}, new(T), T{...}, a zero var, or a call of a function of
// the package that returns a new object.
func (cs *contexts) findAllocs(fd *ast.FuncDecl) (map[*types.Var]bool, map[*types.Var]*types.Var) {
	out := map[*types.Var]bool{}
	bad := map[*types.Var]bool{}
	parts := map[*types.Var]*types.Var{}
	note := func(id ast.Expr, rhs ast.Expr, ok bool) {
		ident, isIdent := ast.Unparen(id).(*ast.Ident)
		if !isIdent {
			return
		}
		v, _ := cs.info.Defs[ident].(*types.Var)
		if v == nil {
			v, _ = cs.info.Uses[ident].(*types.Var)
		}
		if v == nil || v.IsField() {
			return
		}
		switch o := partOwner(cs.info, rhs); {
		case ok && rhs != nil && cs.isAlloc(rhs):
			out[v] = true
		case ok && o != nil && (parts[v] == nil || parts[v] == o):
			parts[v] = o
			bad[v] = true // not itself a new object
		default:
			bad[v] = true
			parts[v] = nil
			delete(parts, v)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			pair := len(n.Lhs) == len(n.Rhs)
			for i, l := range n.Lhs {
				var r ast.Expr
				if pair {
					r = n.Rhs[i]
				}
				note(l, r, pair && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN))
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				switch {
				case len(n.Values) == 0:
					if v, ok := cs.info.Defs[name].(*types.Var); ok {
						if _, isStruct := v.Type().Underlying().(*types.Struct); isStruct {
							out[v] = true
						} else {
							bad[v] = true
						}
					}
				case len(n.Values) == len(n.Names):
					note(name, n.Values[i], true)
				default:
					note(name, nil, false)
				}
			}
		case *ast.RangeStmt:
			note(n.Key, nil, false)
			if n.Value != nil {
				note(n.Value, nil, false)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					note(id, nil, false) // &v: may be reassigned through the pointer
				}
			}
		}
		return true
	})
	for v := range bad {
		delete(out, v)
	}
	for v, o := range parts {
		if !out[o] {
			delete(parts, v)
		}
	}
	return out, parts
}

// partOwner returns the local whose object e takes the address of a part
// of: &c.shards[i], &c.stats, where c holds the object and each step
// stays in its memory or in a slice or array it holds; nil otherwise.
func partOwner(info *types.Info, e ast.Expr) *types.Var {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	x := u.X
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.IndexExpr:
			switch info.TypeOf(e.X).Underlying().(type) {
			case *types.Slice, *types.Array:
				x = e.X
			default:
				return nil
			}
		case *ast.SelectorExpr:
			sel := info.Selections[e]
			if sel == nil || sel.Kind() != types.FieldVal || !ownPath(sel) {
				return nil
			}
			if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
				v, _ := info.Uses[id].(*types.Var)
				if v == nil || v.IsField() {
					return nil
				}
				return v
			}
			if astq.IsPointer(info.TypeOf(e.X)) {
				return nil // through another pointer: not this object's memory
			}
			x = e.X
		default:
			return nil
		}
	}
}

func (cs *contexts) isAlloc(e ast.Expr) bool {
	if astq.NewObject(cs.info, e) {
		return true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		var fn *types.Func
		switch f := ast.Unparen(e.Fun).(type) {
		case *ast.Ident:
			fn, _ = cs.info.Uses[f].(*types.Func)
		case *ast.SelectorExpr:
			fn, _ = cs.info.Uses[f.Sel].(*types.Func)
		}
		if fn == nil {
			return false
		}
		eff := cs.effects[fn.Origin()]
		return eff != nil && eff.FreshResult
	}
	return false
}

// nodeAt is the smallest cfg node that holds pos.
func (dc *declContext) nodeAt(pos token.Pos) ast.Node {
	var best ast.Node
	for _, n := range dc.nodes {
		if n.Pos() <= pos && pos < n.End() && (best == nil || n.End()-n.Pos() < best.End()-best.Pos()) {
			best = n
		}
	}
	return best
}

// isSpawn reports whether n is (or holds) one of the body's goroutine
// starts, and returns it.
func (dc *declContext) spawnIn(n ast.Node) *goroutines.Spawn {
	for _, s := range dc.spawns {
		if n.Pos() <= s.Node.Pos() && s.Node.End() <= n.End() {
			return s
		}
	}
	return nil
}

// spawnUses reports whether a goroutine start hands v to the goroutine.
func (dc *declContext) spawnUses(s *goroutines.Spawn, v *types.Var) bool {
	found := false
	ast.Inspect(s.Node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && dc.info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// sharedAt returns the cfg nodes that run after v is shared for good, as
// far as field goes (nil: any field).
func (cs *contexts) sharedAt(dc *declContext, v, field *types.Var) map[ast.Node]bool {
	key := sharedKey{v, field}
	if m, ok := dc.shared[key]; ok {
		return m
	}
	m := map[ast.Node]bool{}
	dc.shared[key] = m
	seen := map[*cfg.Block]bool{}
	var walk func(blk *cfg.Block, from int)
	walk = func(blk *cfg.Block, from int) {
		for i := from; i < len(blk.Nodes); i++ {
			m[blk.Nodes[i]] = true
		}
		for _, succ := range blk.Succs {
			if !seen[succ] {
				seen[succ] = true
				walk(succ, 0)
			}
		}
	}
	for _, blk := range dc.g.Blocks {
		for i, n := range blk.Nodes {
			if dc.shares(n, v) {
				if methods, ok := dc.methodValuesOnly(n, v); ok && !cs.touches(methods, field) {
					continue // handed on as method values that never reach field
				}
			} else if !dc.sharesOtherMember(n, v) {
				continue
			}
			walk(blk, i+1)
		}
	}
	return m
}

type sharedKey struct{ v, field *types.Var }

// shares reports whether cfg node n shares v for good.
func (dc *declContext) shares(n ast.Node, v *types.Var) bool {
	if s := dc.spawnIn(n); s != nil {
		if s.Lit != nil {
			// The goroutine itself may store v somewhere.
			return dc.sharesIn(s.Lit.Body, v)
		}
		if g, ok := s.Node.(*ast.GoStmt); ok {
			for _, a := range g.Call.Args {
				if dc.mention(a, v, true) == mentionValue {
					return true
				}
			}
		}
		return false
	}
	return dc.sharesStmt(n, v)
}

// sharesIn reports whether any statement inside body shares v.
func (dc *declContext) sharesIn(body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt, *ast.SendStmt, *ast.ValueSpec:
			found = dc.sharesStmt(n, v)
			return !found
		case *ast.GoStmt, *ast.FuncLit:
			found = dc.mention(n, v, false) != mentionNone
			return !found
		}
		return true
	})
	return found
}

func (dc *declContext) sharesStmt(n ast.Node, v *types.Var) bool {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if lit := dc.localHelper(n); lit != nil {
			// f := func() {...}, only ever called here: what it captures
			// stays in this goroutine; only what its body does counts.
			return dc.sharesIn(lit.Body, v)
		}
		kind := mentionNone
		for _, r := range n.Rhs {
			kind = max(kind, dc.mention(r, v, false))
		}
		for _, l := range n.Lhs {
			kind = max(kind, dc.lhsMention(l, v))
		}
		if kind == mentionNone {
			return false
		}
		for _, l := range n.Lhs {
			if dc.ownedByGroup(l, v) {
				continue
			}
			if kind == mentionValue || !dc.isLocal(l) {
				return true
			}
		}
		return false
	case *ast.ValueSpec:
		kind := mentionNone
		for _, r := range n.Values {
			kind = max(kind, dc.mention(r, v, false))
		}
		return kind == mentionValue
	case *ast.SendStmt:
		return dc.mention(n.Value, v, false) != mentionNone
	case *ast.DeclStmt:
		return dc.sharesIn(n, v)
	case *ast.DeferStmt:
		if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
			// defer func() {...}(): called on this goroutine as the
			// function returns, not kept; only what its body does counts.
			for _, a := range n.Call.Args {
				if dc.mention(a, v, true) == mentionValue {
					return true
				}
			}
			return dc.sharesIn(lit.Body, v)
		}
	}
	// Any other statement or expression: a closure or method value that
	// captures v.
	return dc.mention(n, v, false) == mentionValue
}

// lhsMention is how an assignment's left side refers to v, beyond being v
// or its own field (m[v] = x keys a map by v).
func (dc *declContext) lhsMention(l ast.Expr, v *types.Var) int {
	switch e := ast.Unparen(l).(type) {
	case *ast.IndexExpr:
		return max(dc.lhsMention(e.X, v), dc.mention(e.Index, v, false))
	case *ast.SelectorExpr:
		return dc.lhsMention(e.X, v)
	case *ast.StarExpr:
		return dc.lhsMention(e.X, v)
	}
	return mentionNone
}

// ownedBy reports whether l is v or a part of the object v holds.
func (dc *declContext) ownedBy(l ast.Expr, v *types.Var) bool {
	l = ast.Unparen(l)
	for {
		if ix, ok := l.(*ast.IndexExpr); ok {
			l = ast.Unparen(ix.X) // v.m[k] = x stores into v's map
			continue
		}
		break
	}
	if id, ok := l.(*ast.Ident); ok {
		return id.Name == "_" || dc.info.Uses[id] == v || dc.info.Defs[id] == v
	}
	se, ok := l.(*ast.SelectorExpr)
	return ok && accessRoot(dc.info, se) == v
}

// ownedDeep reports whether l is a part of an object that only v reaches:
// l is v.p.f (or deeper), where v.p is a pointer field this function set
// to a call's result or a new object (v.srv = newServer(v.serve);
// v.srv.Conf.Base = func() {...v...}). The call's result went to v's own
// field, which does not share v (sharesStmt), so what it points to is v's
// too.
func (dc *declContext) ownedDeep(l ast.Expr, v *types.Var) bool {
	e := ast.Unparen(l)
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if in, ok := ast.Unparen(x.X).(*ast.SelectorExpr); ok && astq.IsPointer(dc.info.TypeOf(in)) && accessRoot(dc.info, in) == v {
				return dc.setByFunc(in, v)
			}
			e = ast.Unparen(x.X)
		case *ast.IndexExpr:
			e = ast.Unparen(x.X)
		case *ast.StarExpr:
			e = ast.Unparen(x.X)
		default:
			return false
		}
	}
}

// setByFunc reports whether the body assigns field se of v a call's
// result or a new object, and nothing else.
func (dc *declContext) setByFunc(se *ast.SelectorExpr, v *types.Var) bool {
	field := dc.info.Uses[se.Sel]
	set, other := false, false
	ast.Inspect(dc.fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			ls, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || dc.info.Uses[ls.Sel] != field || accessRoot(dc.info, ls) != v {
				continue
			}
			if len(as.Lhs) != len(as.Rhs) {
				other = true
				continue
			}
			switch r := ast.Unparen(as.Rhs[i]).(type) {
			case *ast.CallExpr:
				if tv, ok := dc.info.Types[r.Fun]; ok && tv.IsType() {
					other = true // a conversion of an existing value
				} else {
					set = true
				}
			case *ast.UnaryExpr:
				_, lit := ast.Unparen(r.X).(*ast.CompositeLit)
				set = set || (r.Op == token.AND && lit)
				other = other || !(r.Op == token.AND && lit)
			default:
				other = true
			}
		}
		return true
	})
	return set && !other
}

// isLocal reports whether l is a variable local to the declaration.
func (dc *declContext) isLocal(l ast.Expr) bool {
	id, ok := ast.Unparen(l).(*ast.Ident)
	if !ok {
		return false
	}
	obj := dc.info.Defs[id]
	if obj == nil {
		obj = dc.info.Uses[id]
	}
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pos() >= dc.fd.Pos() && v.Pos() < dc.fd.End()
}

// How an expression refers to the object in v.
const (
	mentionNone  = iota
	mentionArg   // only handed to calls, as an argument or receiver
	mentionValue // as a value that can be kept: stored, captured, aliased
)

// mention is how e refers to v; arg says e is itself a call's argument.
func (dc *declContext) mention(e ast.Node, v *types.Var, arg bool) int {
	as := func() int {
		if arg {
			return mentionArg
		}
		return mentionValue
	}
	switch e := e.(type) {
	case nil:
		return mentionNone
	case *ast.Ident:
		if dc.info.Uses[e] == v {
			return as()
		}
		return mentionNone
	case *ast.ParenExpr:
		return dc.mention(e.X, v, arg)
	case *ast.SelectorExpr:
		sel := dc.info.Selections[e]
		if sel == nil {
			return mentionNone // pkg.Name
		}
		if sel.Kind() == types.MethodVal {
			if dc.mention(e.X, v, false) != mentionNone {
				return mentionValue // v.m as a value: a closure over v
			}
			return mentionNone
		}
		if id, ok := ast.Unparen(e.X).(*ast.Ident); ok && dc.info.Uses[id] == v {
			return mentionNone // v.f: the field's value
		}
		return dc.mention(e.X, v, false)
	case *ast.UnaryExpr:
		if e.Op == token.AND && ownRoot(dc.info, e.X) == v {
			return as() // &v.f
		}
		return dc.mention(e.X, v, false)
	case *ast.CallExpr:
		return dc.mentionInCall(e, v, arg)
	case *ast.FuncLit:
		found := false
		ast.Inspect(e.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && dc.info.Uses[id] == v {
				found = true
			}
			return !found
		})
		if found {
			return mentionValue
		}
		return mentionNone
	}
	k := mentionNone
	ast.Inspect(e, func(n ast.Node) bool {
		if n == e {
			return true
		}
		if n != nil {
			k = max(k, dc.mention(n, v, false))
		}
		return false
	})
	return k
}

// mentionInCall is how call e refers to v: through the function or
// method it calls, or as one of its arguments.
func (dc *declContext) mentionInCall(e *ast.CallExpr, v *types.Var, arg bool) int {
	if tv, ok := dc.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
		return dc.mention(e.Args[0], v, arg) // a conversion is its operand
	}
	k := mentionNone
	if se, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if sel := dc.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal {
			if ownRoot(dc.info, se.X) == v {
				k = mentionArg // v.m(): v handed to a method
			} else {
				k = dc.mention(se.X, v, false)
			}
		} else {
			k = dc.mention(se, v, false)
		}
	} else {
		k = dc.mention(e.Fun, v, false)
	}
	for _, a := range e.Args {
		k = max(k, dc.mention(a, v, true))
	}
	return k
}

// ownPath reports whether a selection's implicit embedded fields are all
// values: x.f promoted through an embedded pointer is another object's.
func ownPath(sel *types.Selection) bool {
	steps, ok := astq.Implicit(sel)
	if !ok {
		return false
	}
	for _, f := range steps {
		if astq.IsPointer(f.Type()) {
			return false
		}
	}
	return true
}
