package lockstate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// What a function does through its pointer parameters (the receiver
// included), summarised so that callers can tell a call that only reads
// through a pointer from one that writes: x.f.Get(k) on a value field f is
// a read of x.f when Get does not write its receiver.
//
// A write through a parameter counts unless it is made while the function
// holds a lock reached through that same parameter exclusively (the
// parameter's own lock makes concurrent calls safe, and guardedby checks
// the write inside the function), or through sync/atomic. Handing the
// pointer (or an address inside what it points to) to code that is not
// known to only read through it counts as a write: a call with no body or
// no summary, an interface method, a store, a send, a return.

// Flags of one pointer parameter.
const (
	paramWrite       uint8 = 1 << iota // written through without its own lock
	paramPlain                         // read or written through without sync/atomic
	paramAtomic                        // accessed through sync/atomic
	paramAtomicWrite                   // written through sync/atomic
	paramOpaque                        // handed to a function of this package with no Go body here (see asm.go)
)

// paramAccess collects, during the final pass of a summary, what a body
// does through the pointer parameters of the declaration it belongs to.
// Closures share their declaration's tracker.
type paramAccess struct {
	index map[*types.Var]int        // pointer parameter -> directives.Receiver or position
	alias map[*types.Var]*types.Var // local -> the parameter it points into (p := &r.f, q := r)
	flags map[*types.Var]uint8
	// opaque is set while the argument of a call of a function with no Go
	// body here is walked: what happens to it is decided by fallbackAccess.
	opaque bool
}

func newParamAccess(sig *types.Signature) *paramAccess {
	pa := &paramAccess{index: map[*types.Var]int{}, alias: map[*types.Var]*types.Var{}, flags: map[*types.Var]uint8{}}
	if r := sig.Recv(); r != nil && astq.IsPointer(r.Type()) {
		pa.index[r] = directives.Receiver
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if p := sig.Params().At(i); astq.IsPointer(p.Type()) {
			pa.index[p] = i
		}
	}
	return pa
}

// root returns the parameter v is, or aliases.
func (pa *paramAccess) root(v *types.Var) *types.Var {
	if _, ok := pa.index[v]; ok {
		return v
	}
	return pa.alias[v]
}

// note records one use of a local; target is the path it points to.
func (pa *paramAccess) note(v *types.Var, target lockpath.Path, u exprUse, s *State) {
	p := pa.root(v)
	if p == nil {
		return
	}
	if pa.opaque {
		pa.flags[p] |= paramOpaque
		return
	}
	switch u {
	case useDeref:
		pa.flags[p] |= paramPlain
		if !ownLockHeld(s, target) && !ownLockHeld(s, lockpath.Path{Root: p}) {
			pa.flags[p] |= paramWrite
		}
	case useLoad:
		pa.flags[p] |= paramPlain
	case useAtomicRead:
		pa.flags[p] |= paramAtomic
	case useAtomicWrite:
		pa.flags[p] |= paramAtomic | paramAtomicWrite
	case useRead, useAddr, useWrite:
		// Copied away (stored, returned, passed to code that may write
		// through it) or its own address taken.
		pa.flags[p] |= paramWrite | paramPlain
	}
}

// ownLockHeld reports whether a lock inside target (target.mu, or a lock
// further in) is held exclusively in s: a write through a pointer made
// under the pointee's own lock is that lock's business.
func ownLockHeld(s *State, target lockpath.Path) bool {
	if !target.Valid() {
		return false
	}
	for path, val := range lockEntries(s.locks) {
		if val.Mode == Exclusive && path != target && path.HasPrefix(target) {
			return true
		}
	}
	return false
}

// addrSource is a guarded field a local points into: p := &x.f,
// p := &x.f[i], p := &x.f.g. Writes through p write x.f.
type addrSource struct {
	sel  *ast.SelectorExpr
	base lockpath.Path
}

// scanAddrs finds locals defined as the address of (a part of) a guarded
// field, reached from the field by field and element steps only.
func (fa *funcAnalysis) scanAddrs() {
	fa.addrs = map[*types.Var]*addrSource{}
	ast.Inspect(fa.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := fa.info.ObjectOf(id).(*types.Var)
			u, isAddr := ast.Unparen(rhs).(*ast.UnaryExpr)
			if !ok || !isAddr || u.Op != token.AND || isPackageLevel(v) {
				continue
			}
			if sel := fa.guardedPart(u.X); sel != nil {
				base := fa.res.Of(sel.X)
				if base.Valid() {
					base = base.Field(locks.ImplicitFields(fa.info.Selections[sel])...)
				}
				fa.addrs[v] = &addrSource{sel: sel, base: base}
			}
		}
		return true
	})
}

// guardedPart returns the guarded field selector whose memory e is part of.
func (fa *funcAnalysis) guardedPart(e ast.Expr) *ast.SelectorExpr {
	return fa.guardedField(e, false)
}

// guardedField returns the guarded field selector e reaches by field and
// index steps through values (not through pointers): the memory e is part
// of, or with maps set, also what an assignment to e stores into (x.f[k]
// stores into the map x.f).
func (fa *funcAnalysis) guardedField(e ast.Expr, maps bool) *ast.SelectorExpr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			sel := fa.info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			if field, _ := sel.Obj().(*types.Var); fa.a.dirs.Guard(field).Guards() {
				return x
			}
			if astq.IsPointer(fa.info.TypeOf(x.X)) {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			xt := fa.info.TypeOf(x.X)
			if astq.IsPointer(xt) {
				return nil
			}
			if _, isMap := xt.Underlying().(*types.Map); isMap && !maps {
				return nil
			}
			e = x.X // an element of an array value, of a slice whose guard covers its contents, or a map entry
		default:
			return nil
		}
	}
}

// addrUse records a write of the guarded field a local points into: a
// write through it not made under a lock inside what it points to, or the
// pointer handed to code that may write through it.
func (fa *funcAnalysis) addrUse(id *ast.Ident, v *types.Var, u exprUse, s *State) {
	src := fa.addrs[v]
	if src == nil || !fa.final || fa.rec == nil {
		return
	}
	switch u {
	case useDeref:
		if ownLockHeld(s, fa.res.Of(id)) {
			return
		}
	case useRead:
	default:
		return
	}
	field, _ := fa.info.Selections[src.sel].Obj().(*types.Var)
	fa.record(&Access{Node: src.sel, Pos: id.Pos(), Var: field, Guard: fa.a.dirs.Guard(field), Base: src.base, Write: true, Through: true}, s)
}

// ParamSummary is what a function does through its pointer parameters
// (directives.Receiver for the receiver). A parameter in none of the lists
// may be written through.
type ParamSummary struct {
	// ReadOnly: never written through, except under a lock reached through
	// it or with sync/atomic, and never handed to code that might.
	ReadOnly []int
	// AtomicRead: only ever read through sync/atomic (or functions that
	// do); AtomicWrite: only ever accessed through sync/atomic, with at
	// least one atomic write.
	AtomicRead, AtomicWrite []int
	// Sync: parameters of function type only ever called, in place,
	// before the function returns (callbacks.go).
	Sync []int
}

func (pa *paramAccess) result() *ParamSummary {
	out := &ParamSummary{}
	for v, i := range pa.index {
		f := pa.flags[v]
		if f&paramOpaque != 0 { // not settled by fallbackAccess: may write
			f |= paramWrite | paramPlain
		}
		if f&paramWrite == 0 {
			out.ReadOnly = append(out.ReadOnly, i)
		}
		if f&paramAtomic != 0 && f&(paramPlain|paramWrite) == 0 {
			if f&paramAtomicWrite != 0 {
				out.AtomicWrite = append(out.AtomicWrite, i)
			} else {
				out.AtomicRead = append(out.AtomicRead, i)
			}
		}
	}
	for _, l := range [][]int{out.ReadOnly, out.AtomicRead, out.AtomicWrite} {
		sortInts(l)
	}
	return out
}

func sortInts(l []int) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

// paramKind is what a call does through one of its pointer arguments.
type paramKind uint8

const (
	kindWrite       paramKind = iota // may write through it (or unknown)
	kindRead                         // only reads through it
	kindAtomicRead                   // only reads it through sync/atomic
	kindAtomicWrite                  // only accesses it through sync/atomic, and writes
)

// use returns how a call of this kind uses the pointee of its argument.
func (k paramKind) use() exprUse {
	switch k {
	case kindRead:
		return useLoad
	case kindAtomicRead:
		return useAtomicRead
	case kindAtomicWrite:
		return useAtomicWrite
	}
	return useDeref
}

// paramKindOf says what fn does through its pointer parameter i
// (directives.Receiver for the receiver): from this package's bodies, or
// from a fact.
func (a *packageAnalysis) paramKindOf(fn *types.Func, i int) paramKind {
	if fn == nil {
		return kindWrite
	}
	sum := a.accessOf(fn)
	if sum == nil {
		return kindWrite
	}
	has := func(l []int) bool {
		for _, x := range l {
			if x == i {
				return true
			}
		}
		return false
	}
	switch {
	case has(sum.AtomicWrite):
		return kindAtomicWrite
	case has(sum.AtomicRead):
		return kindAtomicRead
	case has(sum.ReadOnly):
		return kindRead
	}
	return kindWrite
}

// accessOf returns fn's access summary, or nil when it is not known (no
// body, recursion, another package without a fact).
func (a *packageAnalysis) accessOf(fn *types.Func) *ParamSummary {
	fn = fn.Origin()
	if fn.Pkg() != a.pass.Pkg {
		return a.importedAccess(fn)
	}
	fd := a.decls[fn]
	if fd == nil {
		return a.bodylessAccess(fn)
	}
	a.summaryOf(fn) // computes the access summary too when it analyses fn
	s := a.summaries[fn]
	if s.accState == accBusy {
		a.partial++
	}
	if s.accState != accNone {
		return s.access
	}
	s.accState = accBusy
	if a.candidates != nil {
		// A package without directives: settle the common cases from the
		// syntax alone, which costs much less than the dataflow, and walk
		// bodies in which no lock changes once, without it.
		sum, ok, lockFree := a.quickAccess(fd, fn)
		if ok {
			s.access, s.accState = sum, accDone
			return sum
		}
		if lockFree {
			fa := &funcAnalysis{a: a, info: a.pass.TypesInfo, decl: fd, fn: fn, sig: fn.Type().(*types.Signature),
				body: fd.Body, res: lockpath.NewResolver(a.pass.TypesInfo, nil)}
			fa.pacc = newParamAccess(fa.sig)
			fa.quickWalk(fd.Body, fa.entryState())
			s.access, s.accState = a.finishAccess(fn, fa.pacc), accDone
			return s.access
		}
	}
	fa := a.newFuncAnalysis(fd, fn)
	fa.pacc = newParamAccess(fa.sig)
	fa.analyse(fa.entryState(), nil)
	s.access, s.accState = a.finishAccess(fn, fa.pacc), accDone
	return s.access
}

// Summary states of the access summary.
const (
	accNone uint8 = iota
	accBusy
	accDone
)

// aliasDef makes a local defined from a pointer parameter, or an address
// inside what one points to (p := &r.f, q := r), an alias of it, and walks
// rhs without counting the copy as an escape. It reports false when rhs is
// something else.
func (fa *funcAnalysis) aliasDef(lhs, rhs ast.Expr, s *State) bool {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := fa.info.ObjectOf(id).(*types.Var)
	if !ok || isPackageLevel(v) {
		return false
	}
	addr, isAddr := ast.Unparen(rhs).(*ast.UnaryExpr)
	isAddr = isAddr && addr.Op == token.AND
	if isAddr {
		if _, isLit := ast.Unparen(addr.X).(*ast.CompositeLit); isLit {
			return false // &T{...}: a new object, not an address inside one
		}
	}
	if fa.pacc != nil {
		if p := fa.pointsInto(rhs); p != nil {
			fa.pacc.alias[v] = p
			if !isAddr {
				fa.expr(rhs, s, useBase)
				return true
			}
		}
	}
	if !isAddr {
		return false
	}
	// total := &js.memUsed, used only as atomic.LoadInt64(total): an
	// atomic access of the field, where the address is taken.
	if write, ok := fa.atomicLocal(v); ok && fa.atomicTarget(addr.X, s, write) {
		return true
	}
	// p := &x.f takes an address; what is done through p is what counts.
	fa.expr(addr.X, s, useAddr)
	return true
}

// atomicLocal reports whether every use of the local v in the function is
// the pointer operand of a sync/atomic function (or an assignment to v),
// and whether one of them writes (anything but a Load).
func (fa *funcAnalysis) atomicLocal(v *types.Var) (write, ok bool) {
	if fa.atomicLocals == nil {
		fa.atomicLocals = map[*types.Var]uint8{}
	}
	if k, done := fa.atomicLocals[v]; done {
		return k == 2, k > 0
	}
	allowed := map[*ast.Ident]bool{}
	var uses []*ast.Ident
	ast.Inspect(fa.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if fa.info.Uses[n] == v {
				uses = append(uses, n)
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					allowed[id] = true
				}
			}
		case *ast.CallExpr:
			callee := typeutil.StaticCallee(fa.info, n)
			if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != "sync/atomic" || len(n.Args) == 0 {
				return true
			}
			if id, ok := ast.Unparen(n.Args[0]).(*ast.Ident); ok && fa.info.Uses[id] == v {
				allowed[id] = true
				if !strings.HasPrefix(callee.Name(), "Load") {
					write = true
				}
			}
		}
		return true
	})
	ok = len(uses) > 0
	for _, id := range uses {
		ok = ok && allowed[id]
	}
	k := uint8(0)
	if ok {
		k = 1
		if write {
			k = 2
		}
	}
	fa.atomicLocals[v] = k
	return write, ok
}

// pointsInto returns the tracked parameter e points into: the parameter or
// an alias itself, or &path where path reaches through it by field and
// array steps only.
func (fa *funcAnalysis) pointsInto(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := fa.info.Uses[e].(*types.Var); ok {
			return fa.pacc.root(v)
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return fa.addrInto(e.X)
		}
	}
	return nil
}

func (fa *funcAnalysis) addrInto(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if sel := fa.info.Selections[e]; sel == nil || sel.Kind() != types.FieldVal {
			return nil
		}
		if astq.IsPointer(fa.info.TypeOf(e.X)) {
			return fa.pointsInto(e.X)
		}
		return fa.addrInto(e.X)
	case *ast.IndexExpr:
		xt := fa.info.TypeOf(e.X)
		if astq.IsPointer(xt) {
			return fa.pointsInto(e.X)
		}
		if isArray(xt) {
			return fa.addrInto(e.X)
		}
	case *ast.StarExpr:
		return fa.pointsInto(e.X)
	}
	return nil
}

// kindMatters reports whether what a callee does through the pointer e
// (or, when addressed, through &e) can change what is recorded here: e
// reaches a guarded field, or a pointer parameter being summarised, or a
// local pointing into either. Elsewhere the callee's summary is not
// computed.
func (fa *funcAnalysis) kindMatters(e ast.Expr, addressed bool) bool {
	if !addressed {
		if x := addrOperand(fa.info, e); x != nil {
			e, addressed = x, true
		}
	}
	if addressed {
		if fa.guardedPart(e) != nil {
			return true
		}
		// Down to the pointer the location is reached through, if any.
		for done := false; !done; {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				e = x.X
				done = astq.IsPointer(fa.info.TypeOf(x.X))
			case *ast.IndexExpr:
				e = x.X
				done = !isArray(fa.info.TypeOf(x.X))
			case *ast.StarExpr:
				e, done = x.X, true
			default:
				return false
			}
		}
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	return fa.addrs[v] != nil || (fa.pacc != nil && fa.pacc.root(v) != nil)
}

func (s *ParamSummary) any() bool {
	return s != nil && len(s.ReadOnly)+len(s.AtomicRead)+len(s.AtomicWrite)+len(s.Sync) > 0
}

// ParamTable is the package fact (a facttable) carrying the access
// summaries of a package's methods and functions that have something to
// say (a pointer parameter only read through, or only accessed
// atomically), keyed by LocalKey.
type ParamTable struct {
	facttable.Table[ParamSummary]
}

func (*ParamTable) AFact() {}

func (f *ParamTable) String() string {
	return f.Format("paramtable", func(sum ParamSummary) string {
		var parts []string
		for _, l := range []struct {
			name string
			idx  []int
		}{{"readonly", sum.ReadOnly}, {"atomicread", sum.AtomicRead}, {"atomicwrite", sum.AtomicWrite}, {"sync", sum.Sync}} {
			if len(l.idx) > 0 {
				parts = append(parts, fmt.Sprintf("%s%v", l.name, l.idx))
			}
		}
		return strings.Join(parts, " ")
	})
}

func (a *packageAnalysis) importedAccess(fn *types.Func) *ParamSummary {
	return a.importedAcc.Lookup(fn.Pkg(), LocalKey(fn))
}

func (a *packageAnalysis) exportAccesses() {
	// Callbacks run in place (callbacks.go), for every exported function,
	// analysed or not.
	sync := map[*types.Func][]int{}
	for fn, fd := range a.decls {
		if fn.Exported() {
			if ps := syncParams(a.pass.TypesInfo, fd); len(ps) > 0 {
				sync[fn] = ps
			}
		}
	}
	f := &ParamTable{}
	add := func(fn *types.Func, sum ParamSummary) {
		sum.Sync = sync[fn]
		delete(sync, fn)
		if sum.any() && fn.Exported() {
			if k := LocalKey(fn); k != "" {
				f.Add(k, sum)
			}
		}
	}
	for fn, s := range a.summaries {
		if s.access != nil {
			add(fn, *s.access)
		}
	}
	for fn, sum := range a.asmAccess {
		if sum != nil {
			add(fn, *sum)
		}
	}
	for fn := range sync {
		add(fn, ParamSummary{})
	}
	f.Export(a.pass, f)
}

// quickAccess decides a method's access summary from its syntax when that
// is easy: a receiver that is never named is only read through (it is not
// used at all), and a body that assigns through its receiver and never
// calls a lock method writes it. It reports ok false otherwise, and
// lockFree when nothing in the body (closures included) can change a
// lock's state: no lock method, no lock helper.
func (a *packageAnalysis) quickAccess(fd *ast.FuncDecl, fn *types.Func) (sum *ParamSummary, ok, lockFree bool) {
	sig := fn.Type().(*types.Signature)
	recv := sig.Recv()
	named := recv != nil && astq.IsPointer(recv.Type()) && recv.Name() != "" && recv.Name() != "_"
	if recv != nil && astq.IsPointer(recv.Type()) && !named && sig.Params().Len() == 0 {
		return &ParamSummary{ReadOnly: []int{directives.Receiver}}, true, true
	}
	writes, locking := false, false
	isRecv := func(e ast.Expr) bool {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
					return a.pass.TypesInfo.Uses[id] == types.Object(recv)
				}
				if astq.IsPointer(a.pass.TypesInfo.TypeOf(x.X)) {
					return false
				}
				e = x.X
			case *ast.IndexExpr:
				if astq.IsPointer(a.pass.TypesInfo.TypeOf(x.X)) {
					return false
				}
				e = x.X
			default:
				return false
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				writes = writes || (named && isRecv(lhs))
			}
		case *ast.IncDecStmt:
			writes = writes || (named && isRecv(n.X))
		case *ast.CallExpr:
			if se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && locks.IsOpName(se.Sel.Name) {
				locking = true
			} else if callee := typeutil.StaticCallee(a.pass.TypesInfo, n); callee != nil && (a.candidates[callee] || a.importedEffects(callee) != nil) {
				locking = true // a lock helper
			}
		}
		return !locking
	})
	if writes && !locking {
		return &ParamSummary{}, true, true
	}
	return nil, false, !locking
}

// quickWalk runs the body once, in source order, with one state: enough
// when no lock changes in it (see quickAccess), and much cheaper than the
// dataflow over the control-flow graph.
func (fa *funcAnalysis) quickWalk(body *ast.BlockStmt, s *State) {
	fa.quick, fa.final = true, true
	fa.pending, fa.exitStates = nil, nil
	fa.freshResult = true
	fa.walkStmts(body.List, s)
}

func (fa *funcAnalysis) walkStmts(list []ast.Stmt, s *State) {
	for _, st := range list {
		fa.walkStmt(st, s)
	}
}

// walkStmt walks st in source order; a nil st (an absent Init, Post,
// Else or Comm) matches no case.
func (fa *funcAnalysis) walkStmt(st ast.Stmt, s *State) {
	switch st := st.(type) {
	case *ast.BlockStmt:
		fa.walkStmts(st.List, s)
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.ReturnStmt:
		fa.node(st, s)
	case *ast.DeclStmt:
		if gd, ok := st.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					fa.node(vs, s)
				}
			}
		}
	case *ast.LabeledStmt:
		fa.walkStmt(st.Stmt, s)
	case *ast.IfStmt:
		fa.walkStmt(st.Init, s)
		fa.exprs(s, useBase, st.Cond)
		fa.walkStmts([]ast.Stmt{st.Body, st.Else}, s)
	case *ast.ForStmt:
		fa.walkStmt(st.Init, s)
		fa.exprs(s, useBase, st.Cond)
		fa.walkStmts([]ast.Stmt{st.Post, st.Body}, s)
	case *ast.RangeStmt:
		fa.exprs(s, useBase, st.X)
		if st.Tok == token.ASSIGN {
			fa.exprs(s, useWrite, st.Key, st.Value)
		}
		fa.walkStmt(st.Body, s)
	case *ast.SwitchStmt:
		fa.walkStmt(st.Init, s)
		fa.exprs(s, useBase, st.Tag)
		fa.walkStmt(st.Body, s)
	case *ast.TypeSwitchStmt:
		fa.walkStmts([]ast.Stmt{st.Init, st.Assign, st.Body}, s)
	case *ast.CaseClause:
		fa.exprs(s, useBase, st.List...)
		fa.walkStmts(st.Body, s)
	case *ast.SelectStmt:
		fa.walkStmt(st.Body, s)
	case *ast.CommClause:
		fa.walkStmt(st.Comm, s)
		fa.walkStmts(st.Body, s)
	}
}

// exprs walks each expression of list that is present (not nil), used as u says.
func (fa *funcAnalysis) exprs(s *State, u exprUse, list ...ast.Expr) {
	for _, e := range list {
		if e != nil {
			fa.expr(e, s, u)
		}
	}
}

// LocalKey names a package-level function or a method within its
// package (F, or T.M), as the keys of the engine's package facts do; ""
// for a method of a type with no name. (directives.FuncKey is the key
// across packages: pkg/path.T.M.)
func LocalKey(fn *types.Func) string {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
		return ""
	}
	return fn.Name()
}
