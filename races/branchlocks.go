package races

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Locks held on one way of a branch.
//
// Three shapes the body dataflow (locks.go) takes on an If's edges
// (edge): a branch on a parameter a caller fixes to a constant goes one
// way (Begin(true)); a lock a branch on a boolean parameter takes is
// held on the other way too, a caller passing false holding it
// (flagLocks: if needsLock { nc.mu.Lock(); defer nc.mu.Unlock() }); and
// a call's error compared with nil, below.
//
// A function that takes a lock and releases it on each error return
// leaves it held where it returns a nil error:
//
//	func (db *DB) beginRWTx() (*Tx, error) {
//		db.rwlock.Lock()
//		if !db.opened {
//			db.rwlock.Unlock()
//			return nil, ErrDatabaseNotOpen
//		}
//		...
//		return t, nil
//	}
//
// Its callers hold the lock on the branch of `if err != nil` where the
// error is nil. A function's effect (locks.go) keeps both: all, the
// least at any return, and ok, the least at the returns that can give a
// nil error. The dataflow adds ok's difference on the branch of a
// comparison of a call's error result with nil where it is nil.

// lockEffect is a function's net effect on locks: at every return (all)
// and at the returns that can succeed (ok: all, where the function
// returns no error).
type lockEffect struct {
	all, ok counts
}

// effectKey is a function and the constant booleans its parameters are
// fixed to ("" for none).
type effectKey struct {
	fn     *ssa.Function
	consts string
}

// edge is the state the dataflow carries from the end of b (s) into its
// i-th successor, and whether it is taken at all: a branch on a
// parameter fixed to a constant goes one way; the branch of a call's
// error compared with nil where it is nil holds what the call holds
// where it succeeds.
func (env lockEnv) edge(b *ssa.BasicBlock, i int, s state) (state, bool) {
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return s, true
	}
	if v, fixed := env.fixed(br.Cond); fixed {
		return s, v == (i == 0)
	}
	if flag, unset := env.flagCheck(br.Cond); flag != "" {
		if i == unset {
			return takeFlag(s, flag), true // closedflag.go
		}
		return s, true
	}
	if keys, other := env.flagLocks(br); i == other && len(keys) > 0 {
		out := s.copy()
		for _, k := range keys {
			out.apply(k, 1)
		}
		return out, true
	}
	call, nilWay := nilCheck(br.Cond)
	if call == nil || nilWay != i || env.okDelta == nil {
		return s, true
	}
	d := env.okDelta(call)
	if len(d) == 0 {
		return s, true
	}
	out := s.copy()
	for k, v := range d {
		out.apply(env.canon.of(k), v)
	}
	return out, true
}

// fixed is the value of cond where it is a parameter fixed to a
// constant, or its negation.
func (env lockEnv) fixed(cond ssa.Value) (value, ok bool) {
	if not, isNot := cond.(*ssa.UnOp); isNot && not.Op == token.NOT {
		v, ok := env.fixed(not.X)
		return !v, ok
	}
	if load, isLoad := cond.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		cond = cellValue(load.X) // a parameter a function literal captures lives in a cell
	}
	p, isParam := cond.(*ssa.Parameter)
	if !isParam {
		return false, false
	}
	v, ok := env.consts[p]
	return v, ok
}

// cellValue is the one value stored into a variable's cell, where
// nothing else is (the literals it is captured by only read it); nil
// otherwise.
func cellValue(v ssa.Value) ssa.Value {
	cell, ok := v.(*ssa.Alloc)
	if !ok || !readOnlyCaptured(cell) {
		return nil
	}
	var val ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// written reports whether a function literal stores into the variable
// it captured as fv.
func written(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		if st, ok := ref.(*ssa.Store); !ok || st.Addr != ssa.Value(fv) {
			if _, load := ref.(*ssa.UnOp); !load {
				return true // handed on: may be written elsewhere
			}
			continue
		}
		return true
	}
	return false
}

// returned is ret's result i: what the return's block stored into the
// result's cell last, for a function whose results live in cells (one
// with defers, whose return loads them after the deferred calls run; a
// deferred function that sets the result is not seen).
func returned(ret *ssa.Return, i int) ssa.Value {
	v := ret.Results[i]
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := ret.Block().Instrs
	for j := len(instrs) - 1; j >= 0; j-- {
		if st, ok := instrs[j].(*ssa.Store); ok && st.Addr == ssa.Value(cell) {
			return st.Val
		}
	}
	return v
}

// flagLocks is, for a branch on a boolean parameter or field whose one
// way only takes locks and falls into the other (if needsLock {
// nc.mu.Lock(); defer nc.mu.Unlock() }, or if !locked { ms.RLock(); defer
// ms.RUnlock() }, which SSA spells as a branch on locked with its ways
// swapped; miniredis's if !ctx.nested { m.Lock(); defer m.Unlock() }),
// the locks it takes and the successor of the other way: the convention
// is that a caller passing the other value holds them already, so on the
// other way they are held too (and so for twinLocks' shape). Only where the dataflow assumes it
// (env.flagged: the held sets, not a function's effect on its callers).
func (env lockEnv) flagLocks(br *ssa.If) ([]string, int) {
	if !env.flagged {
		return nil, 0
	}
	cond := br.Cond
	if not, isNot := cond.(*ssa.UnOp); isNot && not.Op == token.NOT {
		cond = not.X
	}
	if _, isParam := cond.(*ssa.Parameter); !isParam {
		if !fieldFlag(cond) {
			return nil, 0
		}
		if keys, way := env.twinLocks(br); len(keys) > 0 {
			return keys, way
		}
	}
	b := br.Block()
	for way := 0; way < 2; way++ {
		then, other := b.Succs[way], b.Succs[1-way]
		if len(then.Succs) != 1 || then.Succs[0] != other || len(then.Preds) != 1 {
			continue
		}
		if keys := acquiresOnly(then, env); len(keys) > 0 {
			return keys, 1 - way
		}
	}
	return nil, 0
}

// acquiresOnly is the locks block b takes, if the only lock operations
// its calls make take locks; nil if one releases a lock.
func acquiresOnly(b *ssa.BasicBlock, env lockEnv) []string {
	var keys []string
	for _, instr := range b.Instrs {
		call, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		op, ok := asLockOp(call)
		if !ok || !op.acquire {
			return nil // it releases something: not the shape
		}
		keys = append(keys, env.canon.of(op.key))
	}
	return keys
}

// nilCheck recognises `err != nil` and `err == nil` for err a call's
// error result (its only or last result): the call, and which successor
// of the branch is taken where err is nil (0 or 1).
func nilCheck(cond ssa.Value) (*ssa.Call, int) {
	x, nilWay := nilCompared(cond)
	if x == nil {
		return nil, 0
	}
	call := errorOf(x)
	if call == nil {
		return nil, 0
	}
	return call, nilWay
}

// nilCompared recognises `x != nil` and `x == nil`: x, and which
// successor of a branch on cond is taken where x is nil (0 or 1).
func nilCompared(cond ssa.Value) (ssa.Value, int) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, 0
	}
	x, y := bin.X, bin.Y
	if isNil(x) {
		x, y = y, x
	}
	if !isNil(y) {
		return nil, 0
	}
	if bin.Op == token.EQL {
		return x, 0
	}
	return x, 1
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// errorOf is the call v is the error result of (its only or last
// result), or nil.
func errorOf(v ssa.Value) *ssa.Call {
	if !isError(v.Type()) {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Call:
		return x
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		if ok && x.Index == call.Type().(*types.Tuple).Len()-1 {
			return call
		}
	case *ssa.UnOp:
		if stored := storedJustBefore(x); stored != nil && stored != v {
			return errorOf(stored)
		}
	}
	return nil
}

// storedJustBefore is, for load a load of a variable's cell (a named
// result a deferred function reads: err = tx.commitFreelist(); if err
// != nil), the value stored into the cell last before it: in its block,
// or up the blocks each reached from one other. Nil where that is not
// one store, or where a function literal may store into the cell (the
// literals that capture it only read it: a deferred logger's check).
func storedJustBefore(load *ssa.UnOp) ssa.Value {
	cell, ok := load.X.(*ssa.Alloc)
	if !ok || load.Op != token.MUL || !deferredWriters(cell) {
		return nil
	}
	b := load.Block()
	at := slices.Index(b.Instrs, ssa.Instruction(load))
	for range 16 {
		for j := at - 1; j >= 0; j-- {
			if st, ok := b.Instrs[j].(*ssa.Store); ok && st.Addr == ssa.Value(cell) {
				return st.Val
			}
		}
		if len(b.Preds) != 1 {
			return nil
		}
		b = b.Preds[0]
		at = len(b.Instrs)
	}
	return nil
}

// readOnlyCaptured reports whether only stores of the function itself
// write cell: the function literals that capture it only read it, and
// its address goes nowhere else.
func readOnlyCaptured(cell *ssa.Alloc) bool {
	return ownStoresOnly(cell, false)
}

// deferredWriters reports whether, until the function returns, only its
// own stores write cell: a literal that captures it and writes it is
// only deferred, so it runs as the function returns (buntdb's managed:
// tx, err = db.Begin(w); if err != nil { return }; defer func() { ...
// err = tx.Commit() }()).
func deferredWriters(cell *ssa.Alloc) bool {
	return ownStoresOnly(cell, true)
}

// ownStoresOnly reports whether cell's address goes nowhere but the
// function's own loads and stores and the literals that capture it, and
// each of those only reads it or, with deferred, is only deferred.
func ownStoresOnly(cell *ssa.Alloc, deferred bool) bool {
	for _, ref := range *cell.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != ssa.Value(cell) {
				return false // the cell's address stored somewhere
			}
		case *ssa.UnOp:
		case *ssa.MakeClosure:
			fn := x.Fn.(*ssa.Function)
			for i, b := range x.Bindings {
				if b == ssa.Value(cell) && written(fn.FreeVars[i]) && !(deferred && onlyDeferred(x)) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// onlyDeferred reports whether closure is used only as the function a
// defer statement calls.
func onlyDeferred(closure *ssa.MakeClosure) bool {
	refs := closure.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, ref := range *refs {
		d, ok := ref.(*ssa.Defer)
		if !ok || d.Call.Value != ssa.Value(closure) || slices.Contains(d.Call.Args, ssa.Value(closure)) {
			return false
		}
	}
	return true
}

// failedOn reports whether err, an error b returns, is surely not nil
// there: b is reached only through the way of a comparison of err with
// nil where it is not (if err != nil { tx.rollback(); return err }).
func failedOn(err ssa.Value, b *ssa.BasicBlock) bool {
	err = errValue(err)
	for cur := b; cur != nil; cur = cur.Idom() {
		if len(cur.Preds) != 1 {
			continue
		}
		p := cur.Preds[0]
		br, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || p.Succs[0] == p.Succs[1] {
			continue
		}
		x, nilWay := nilCompared(br.Cond)
		if x != nil && errValue(x) == err && p.Succs[1-nilWay] == cur {
			return true
		}
	}
	return false
}

// errValue is v, or the value stored into its cell where v loads one
// (storedJustBefore).
func errValue(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok {
		if stored := storedJustBefore(load); stored != nil {
			return stored
		}
	}
	return v
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// returnsError reports whether fn's last result is an error.
func returnsError(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	return res.Len() > 0 && isError(res.At(res.Len()-1).Type())
}

// nonNilError reports whether v, an error a function returns, is surely
// not nil: an interface made from a concrete value, or what errors.New
// and fmt.Errorf return, directly or held in a package variable that
// only such values are stored into (var ErrClosed = errors.New(...)).
func nonNilError(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return true
	case *ssa.Call:
		return newError(x)
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		return ok && x.Op == token.MUL && errorVar(g)
	}
	return false
}

// newError reports whether call is errors.New or fmt.Errorf, which never
// return nil.
func newError(call *ssa.Call) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Signature.Recv() != nil {
		return false
	}
	switch callee.Pkg.Pkg.Path() + "." + callee.Name() {
	case "errors.New", "fmt.Errorf":
		return true
	}
	return false
}

// errorVar reports whether every store into g, in its package's
// initialisation, is of a surely non-nil error, and there is one. A
// dependency's variable, whose initialisation is not built, is taken as
// the sentinel error such a variable is (berrors.ErrDatabaseNotOpen).
func errorVar(g *ssa.Global) bool {
	init := g.Pkg.Func("init")
	if init == nil || init.Blocks == nil {
		return true
	}
	stored := false
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || st.Addr != ssa.Value(g) {
				continue
			}
			if !nonNilError(st.Val) {
				return false
			}
			stored = true
		}
	}
	return stored
}

// constArgs is the parameters of callee a call passes a constant boolean
// to; nil if none.
func constArgs(common *ssa.CallCommon, callee *ssa.Function, callerConsts map[*ssa.Parameter]bool) map[*ssa.Parameter]bool {
	var out map[*ssa.Parameter]bool
	for i, arg := range common.Args {
		if i >= len(callee.Params) {
			break
		}
		var v bool
		switch x := arg.(type) {
		case *ssa.Const:
			if x.Value == nil || x.Value.Kind() != constant.Bool {
				continue
			}
			v = constant.BoolVal(x.Value)
		case *ssa.Parameter:
			fixed, ok := callerConsts[x] // the caller's own parameter, fixed where it was called
			if !ok {
				continue
			}
			v = fixed
		default:
			continue
		}
		if out == nil {
			out = map[*ssa.Parameter]bool{}
		}
		out[callee.Params[i]] = v
	}
	return out
}

// constsKey names the constants fixed for fn's parameters, the same for
// the same constants.
func constsKey(fn *ssa.Function, consts map[*ssa.Parameter]bool) string {
	if len(consts) == 0 {
		return ""
	}
	var b strings.Builder
	for i, p := range fn.Params {
		if v, ok := consts[p]; ok {
			b.WriteString(strconv.Itoa(i) + "=" + strconv.FormatBool(v) + ";")
		}
	}
	return b.String()
}

// plus is x with d added to each count; minus, what y lacks of x (x-y),
// nil if nothing.
func plus(x, d counts) counts {
	if len(d) == 0 {
		return x
	}
	out := x.clone()
	if out == nil {
		out = counts{}
	}
	for k, v := range d {
		out[k] = min(max(out[k]+v, -1), 2)
		if out[k] == 0 {
			delete(out, k)
		}
	}
	return out
}

func minus(x, y counts) counts {
	var out counts
	for k, v := range x {
		if d := v - y[k]; d != 0 {
			if out == nil {
				out = counts{}
			}
			out[k] = d
		}
	}
	for k, v := range y {
		if _, ok := x[k]; !ok && v != 0 {
			if out == nil {
				out = counts{}
			}
			out[k] = -v
		}
	}
	return out
}

// flagBranches reports whether fn branches on a boolean parameter to
// take a lock (flagLocks): its held sets assume what its effect must not.
func flagBranches(fn *ssa.Function) bool {
	env := lockEnv{flagged: true}
	for _, b := range fn.Blocks {
		if br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if keys, _ := env.flagLocks(br); len(keys) > 0 {
				return true
			}
		}
	}
	return false
}
