package guardedby

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// A map of per-key locks (map[string]*sync.Mutex) gives every goroutine
// that works on key k the same lock, m[k]. Deleting or replacing the entry
// while this goroutine holds its lock breaks that: the next goroutine to
// look k up creates a fresh lock, takes it at once, and runs alongside the
// holder. mapEntry reports a delete(m, k) or a store m[k] = v made while a
// lock taken from m[k] (the same map path and the same key variable or
// constant) is held:
//
//   - directly: m[k].Lock(), or l := m[k]; l.Lock();
//   - through a local whose every value comes from m[k]: the get-or-create
//     l, ok := m[k]; if !ok { l = new(sync.Mutex); m[k] = l };
//   - through a helper of this package that returns m[k] of its receiver
//     or a parameter for a key parameter (l := t.ref(id));
//   - in a closure that releases a captured lock it did not take (a
//     release function returned by an acquire): the lock is held on entry.
//
// A store of the lock itself back into its entry (m[k] = l) is not a
// replacement. Only maps whose values are nothing but locks are checked:
// an entry with other fields may carry a "dead" flag, set under its lock
// before the entry is deleted, which a goroutine that gets the lock later
// checks before it goes on (and looks the key up again). Deleting while
// holding the lock is then the correct shape.

// entry is a map entry named by the map's path and its key: a stable
// variable or a constant.
type entry struct {
	m   lockpath.Path
	key string // "v:" + the variable's position, or "c:" + the constant
}

// origins are what the locals of one declaration were assigned from.
type origins struct {
	of map[*types.Var]entry // locals whose every value is one map entry
}

// entryHelper is what a function returning one of its maps' entries
// returns: the entry of the map at path sel below parameter root (the
// receiver is directives.Receiver), for the key parameter key.
type entryHelper struct {
	root, key int
	sel       string
}

type mapEntryChecker struct {
	c       *checker
	decls   map[*types.Func]*ast.FuncDecl
	res     map[*ast.FuncDecl]*lockpath.Resolver
	origins map[*ast.FuncDecl]*origins
	helpers map[*types.Func]*entryHelper // nil: not a helper
	busy    map[*types.Func]bool
}

func (c *checker) mapEntries() {
	var fns []*lockstate.Func
	for _, fn := range c.ls.Funcs {
		if !fn.Unconverged && len(fn.MapEntries) > 0 {
			fns = append(fns, fn)
		}
	}
	if len(fns) == 0 {
		return
	}
	mc := &mapEntryChecker{c: c, decls: map[*types.Func]*ast.FuncDecl{}, res: map[*ast.FuncDecl]*lockpath.Resolver{},
		origins: map[*ast.FuncDecl]*origins{}, helpers: map[*types.Func]*entryHelper{}, busy: map[*types.Func]bool{}}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					mc.decls[obj] = fd
				}
			}
		}
	}
	for _, fn := range c.ls.Funcs {
		if fn.Lit == nil && fn.Resolver != nil {
			mc.res[fn.Decl] = fn.Resolver
		}
	}
	for _, fn := range fns {
		for _, me := range fn.MapEntries {
			mc.check(fn, me)
		}
	}
}

// keyOf names a key expression: a constant, or a variable that keeps its
// value throughout the function.
func (mc *mapEntryChecker) keyOf(res *lockpath.Resolver, k ast.Expr) (string, bool) {
	info := mc.c.pass.TypesInfo
	if tv, ok := info.Types[k]; ok && tv.Value != nil {
		return "c:" + tv.Value.ExactString(), true
	}
	id, ok := ast.Unparen(k).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !res.Stable(v) {
		return "", false
	}
	return fmt.Sprintf("v:%d", v.Pos()), true
}

// entryOf names m[k], or reports false.
func (mc *mapEntryChecker) entryOf(res *lockpath.Resolver, m, k ast.Expr) (entry, bool) {
	if _, ok := mc.c.pass.TypesInfo.TypeOf(m).Underlying().(*types.Map); !ok {
		return entry{}, false
	}
	p := res.Of(m)
	key, ok := mc.keyOf(res, k)
	if !p.Valid() || !ok {
		return entry{}, false
	}
	return entry{m: p, key: key}, true
}

func (mc *mapEntryChecker) check(fn *lockstate.Func, me *lockstate.MapEntry) {
	if mt, ok := mc.c.pass.TypesInfo.TypeOf(me.Map).Underlying().(*types.Map); !ok || !pureLock(mt.Elem()) {
		return
	}
	res := fn.Resolver
	e, ok := mc.entryOf(res, me.Map, me.Key)
	if !ok {
		return
	}
	org := mc.originsOf(fn.Decl)
	var stored *types.Var // m[k] = l: l goes back into its own entry
	if me.Value != nil {
		if id, ok := ast.Unparen(me.Value).(*ast.Ident); ok {
			stored, _ = mc.c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		}
	}
	// The locks held here: the state's, and those the body shows were
	// held when it was entered (a release closure unlocking what its
	// acquire locked) and has not touched since.
	held := me.State.Held()
	if fn.Implied != nil {
		for _, p := range fn.Implied.Held() {
			if v := me.State.Lock(p); v.Mode == lockstate.Unknown && v.Site == token.NoPos {
				held = append(held, p)
			}
		}
	}
	for _, p := range held {
		var via string
		if v, ok := p.Root.(*types.Var); ok && org.of[v] == e {
			if v == stored {
				continue
			}
			via = v.Name()
		} else if p.Root == e.m.Root && strings.HasPrefix(p.Sel, e.m.Sel+"[") && mc.sameKey(p.Sel[len(e.m.Sel):], me.Key) {
			via = ""
		} else {
			continue
		}
		mc.report(me, p, via)
		return
	}
}

// sameKey reports whether sel, the rest of a lock path after the map's
// path ("[k]" or "[k].mu"), indexes with key expression k.
func (mc *mapEntryChecker) sameKey(sel string, k ast.Expr) bool {
	want := ""
	if tv, ok := mc.c.pass.TypesInfo.Types[k]; ok && tv.Value != nil {
		want = "[" + tv.Value.ExactString() + "]"
	} else if id, ok := ast.Unparen(k).(*ast.Ident); ok {
		want = "[" + id.Name + "]"
	} else {
		return false
	}
	rest, ok := strings.CutPrefix(sel, want)
	return ok && (rest == "" || rest[0] == '.')
}

func (mc *mapEntryChecker) report(me *lockstate.MapEntry, lock lockpath.Path, via string) {
	pkg := mc.c.pass.Pkg
	m, k := types.ExprString(me.Map), types.ExprString(me.Key)
	what := lock.Local(pkg)
	if via != "" {
		what += ", the lock taken from " + m + "[" + k + "],"
	}
	verb := "delete(" + m + ", " + k + ") removes"
	if me.Value != nil {
		verb = m + "[" + k + "] = " + types.ExprString(me.Value) + " replaces"
	}
	mc.c.rep.Reportf(me.Node.Pos(), nil,
		"%s the entry while %s is still held: another goroutine can now create a fresh lock for %s and run alongside this one; "+
			"unlock %s first, and drop the entry only when no goroutine holds or waits for its lock (count them under the map's lock)",
		verb, what, k, lock.Local(pkg))
}

// originsOf computes, for the locals of decl (its closures included),
// the map entry each one's values all come from.
func (mc *mapEntryChecker) originsOf(decl *ast.FuncDecl) *origins {
	if o, ok := mc.origins[decl]; ok {
		return o
	}
	o := &origins{of: map[*types.Var]entry{}}
	mc.origins[decl] = o
	res := mc.res[decl]
	if res == nil || decl.Body == nil {
		return o
	}
	vals := mc.localValues(decl, res)
	info := mc.c.pass.TypesInfo
	from, bad, storedAt := vals.from, vals.bad, vals.storedAt
	for v, vals := range from {
		if bad[v] {
			continue
		}
		var got entry
		ok, allocs := true, false
		for _, val := range vals {
			if astq.NewObject(info, val) {
				allocs = true
				continue
			}
			e, found := mc.valueEntry(res, val)
			if !found || (got != entry{} && got != e) {
				ok = false
				break
			}
			got = e
		}
		if !ok {
			continue
		}
		if allocs {
			// A new lock counts only when it is stored into the entry
			// the other values come from.
			stores := storedAt[v]
			if got == (entry{}) && len(stores) > 0 {
				got = stores[0]
			}
			if got == (entry{}) || !contains(stores, got) {
				continue
			}
		}
		if got != (entry{}) {
			o.of[v] = got
		}
	}
	return o
}

// localValues is what a declaration assigns to its locals: the values of
// each (from), the locals whose values cannot all be known (bad: a tuple
// assignment, an address taken, a declaration without a value), and the
// map entries each is stored into (storedAt: m[k] = v).
type localValues struct {
	from     map[*types.Var][]ast.Expr
	bad      map[*types.Var]bool
	storedAt map[*types.Var][]entry
}

func (mc *mapEntryChecker) localValues(decl *ast.FuncDecl, res *lockpath.Resolver) localValues {
	info := mc.c.pass.TypesInfo
	lv := localValues{
		from:     map[*types.Var][]ast.Expr{}, // the values assigned; nil: unknown
		bad:      map[*types.Var]bool{},
		storedAt: map[*types.Var][]entry{}, // m[k] = v
	}
	local := func(e ast.Expr) *types.Var { return localVar(info, e) }
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			mc.assigned(&lv, n, res)
		case *ast.ValueSpec:
			for i, id := range n.Names {
				v, _ := info.Defs[id].(*types.Var)
				if v == nil {
					continue
				}
				if len(n.Values) == len(n.Names) {
					lv.from[v] = append(lv.from[v], n.Values[i])
				} else {
					lv.bad[v] = true
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := local(e); v != nil {
					lv.bad[v] = true
				}
			}
		case *ast.IncDecStmt:
			if v := local(n.X); v != nil {
				lv.bad[v] = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := local(n.X); v != nil {
					lv.bad[v] = true
				}
			}
		}
		return true
	})
	return lv
}

// localVar returns the function-local variable e names, or nil.
func localVar(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// assigned records what one assignment gives the locals it writes: the
// value, a map entry read with comma-ok, or nothing known; and the
// entries a local is stored into (m[k] = v).
func (mc *mapEntryChecker) assigned(lv *localValues, n *ast.AssignStmt, res *lockpath.Resolver) {
	local := func(e ast.Expr) *types.Var { return localVar(mc.c.pass.TypesInfo, e) }
	switch {
	case len(n.Lhs) == len(n.Rhs):
		for i, lhs := range n.Lhs {
			if v := local(lhs); v != nil {
				lv.from[v] = append(lv.from[v], n.Rhs[i])
			} else if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
				if v := local(n.Rhs[i]); v != nil {
					if e, ok := mc.entryOf(res, ix.X, ix.Index); ok {
						lv.storedAt[v] = append(lv.storedAt[v], e)
					}
				}
			}
		}
		return
	case len(n.Rhs) == 1 && len(n.Lhs) == 2:
		// l, ok := m[k]
		if ix, ok := ast.Unparen(n.Rhs[0]).(*ast.IndexExpr); ok {
			if v := local(n.Lhs[0]); v != nil {
				lv.from[v] = append(lv.from[v], ix)
			}
			if v := local(n.Lhs[1]); v != nil {
				lv.bad[v] = true
			}
			return
		}
	}
	for _, lhs := range n.Lhs {
		if v := local(lhs); v != nil {
			lv.bad[v] = true
		}
	}
}

func contains(es []entry, e entry) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// valueEntry names the map entry a value is: m[k] itself, or the result
// of a helper that returns one.
func (mc *mapEntryChecker) valueEntry(res *lockpath.Resolver, val ast.Expr) (entry, bool) {
	info := mc.c.pass.TypesInfo
	switch val := ast.Unparen(val).(type) {
	case *ast.IndexExpr:
		return mc.entryOf(res, val.X, val.Index)
	case *ast.CallExpr:
		callee, ok := calleeFunc(info, val)
		if !ok {
			return entry{}, false
		}
		h := mc.helper(callee)
		if h == nil {
			return entry{}, false
		}
		var base ast.Expr
		args := val.Args
		if h.root == directives.Receiver {
			se, ok := ast.Unparen(val.Fun).(*ast.SelectorExpr)
			if !ok {
				return entry{}, false
			}
			base = se.X
		} else if h.root < len(args) {
			base = args[h.root]
		}
		if base == nil || h.key >= len(args) {
			return entry{}, false
		}
		p := res.Of(base)
		key, ok := mc.keyOf(res, args[h.key])
		if !p.Valid() || !ok {
			return entry{}, false
		}
		return entry{m: lockpath.Path{Root: p.Root, Sel: p.Sel + h.sel}, key: key}, true
	}
	return entry{}, false
}

func calleeFunc(info *types.Info, call *ast.CallExpr) (*types.Func, bool) {
	fn, ok := info.Uses[astq.CalleeName(call)].(*types.Func)
	return fn, ok
}

// helper decides whether fn, a function of this package, returns an entry
// of a map below its receiver or a parameter, for a key parameter, at
// every return.
func (mc *mapEntryChecker) helper(fn *types.Func) *entryHelper {
	if h, ok := mc.helpers[fn]; ok {
		return h
	}
	mc.helpers[fn] = nil
	decl := mc.decls[fn]
	res := mc.res[decl]
	if decl == nil || res == nil || mc.busy[fn] {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 || !holdsLockType(sig.Results().At(0).Type()) {
		return nil
	}
	mc.busy[fn] = true
	defer delete(mc.busy, fn)
	org := mc.originsOf(decl)
	var got entry
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			var e entry
			found := false
			if id, isID := ast.Unparen(n.Results[0]).(*ast.Ident); isID {
				if v, isVar := mc.c.pass.TypesInfo.ObjectOf(id).(*types.Var); isVar {
					e, found = org.of[v]
				}
			} else {
				e, found = mc.valueEntry(res, n.Results[0])
			}
			if !found || (got != entry{} && got != e) {
				ok = false
				return false
			}
			got = e
		}
		return true
	})
	if !ok || got == (entry{}) {
		return nil
	}
	root, isParam := directives.ParamOf(sig, got.m.Root)
	if !isParam || len(got.key) < 2 || got.key[:2] != "v:" {
		return nil
	}
	key := -2
	for i := 0; i < sig.Params().Len(); i++ {
		if fmt.Sprintf("v:%d", sig.Params().At(i).Pos()) == got.key {
			key = i
		}
	}
	if key < 0 {
		return nil
	}
	h := &entryHelper{root: root, key: key, sel: got.m.Sel}
	mc.helpers[fn] = h
	return h
}

// pureLock reports whether values of type t are locks and nothing else: a
// sync lock, a pointer to one, or a struct (or pointer to one) whose every
// field is a lock.
func pureLock(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
		lock, _ := locks.IsLock(t)
		return lock
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if lock, _ := locks.IsLock(st.Field(i).Type()); !lock {
			return false
		}
	}
	return true
}

// holdsLockType is lockstate's test for map values that are locks or hold
// one, for a helper's result.
func holdsLockType(t types.Type) bool {
	if lock, _ := locks.IsLock(t); lock {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if lock, _ := locks.IsLock(st.Field(i).Type()); lock {
				return true
			}
		}
	}
	return false
}
