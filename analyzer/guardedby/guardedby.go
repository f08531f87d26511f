package guardedby

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the guardedby rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run})

// Category is the diagnostic category of this rule.
const Category = "guardedby"

type checker struct {
	pass *analysis.Pass
	ls   *lockstate.Result
	dirs *directives.Result
	rep  *report.Reporter
	// entries, computed on demand, are the package's entry points for
	// ...Locked calls (see entryPoint).
	entries map[*types.Func]bool
	// callIdx, built on demand, indexes the package's calls for
	// heldByCallers.
	callIdx *callerIndex
	// globalWrites: the package-level variables the package writes or
	// takes the address of (see globalWritten).
	globalWrites map[*types.Var]bool
	scopes       map[*ast.FuncDecl]*objectScope
}

func run(pass *rule.Pass) {
	ls := pass.Engine
	c := &checker{pass: pass.Pass, ls: ls, dirs: ls.Dirs, rep: pass.Report}
	if !ls.Dirs.Active() {
		// No directives here or below: the engine ran for guard inference,
		// and the only contracts are ...Locked names. Check their calls and
		// nothing else, so inference adds findings only where it is sure.
		for _, fn := range ls.Funcs {
			for _, call := range fn.Calls {
				c.contractCall(fn, call)
			}
			for _, g := range fn.Gos {
				c.goStmt(g)
			}
		}
		return
	}
	// Without directives of its own (not Full), the package is checked only
	// against what it imports: guarded fields, and the declared contracts of
	// the functions it calls. Lock balance and self-deadlock through
	// inferred effects are about its own locks, which nobody annotated.
	full := ls.Dirs.Full()
	for _, fn := range ls.Funcs {
		if fn.Unconverged {
			c.unconverged(fn)
			continue
		}
		for _, acc := range fn.Accesses {
			c.access(fn, acc)
		}
		for _, call := range fn.Calls {
			c.contractCall(fn, call)
			c.selfDeadlockCall(fn, call, full)
		}
		for _, g := range fn.Gos {
			c.goStmt(g)
		}
		if !full {
			continue
		}
		// A second Lock, or a recursive RLock (lockorder's report), is the
		// one mistake; the Unlock that pairs with it is not another.
		relocked := map[lockpath.Path]bool{}
		for _, op := range fn.LockOps {
			if (op.Op == locks.Lock || op.Op == locks.RLock) && op.Before.Mode.Held() {
				relocked[op.Lock] = true
			}
		}
		for _, op := range fn.LockOps {
			c.lockOp(op, relocked)
		}
		c.returns(fn)
	}
	if full {
		c.mapEntries()
	}
	c.refcounts()
	c.atomicCopies()
}

// anyHeld reports whether some lock is, or may be, held in s.
func anyHeld(s *lockstate.State) bool {
	for _, p := range s.Paths() {
		switch s.Lock(p).Mode {
		case lockstate.Unknown, lockstate.NotHeld:
		default:
			return true
		}
	}
	return false
}

// unconverged reports a function whose lock state did not settle within
// the engine's budget: nothing in it was checked, so silence about it
// would mean nothing.
func (c *checker) unconverged(fn *lockstate.Func) {
	pos, name := fn.Decl.Name.Pos(), fn.Decl.Name.Name
	if fn.Lit != nil {
		pos, name = fn.Lit.Pos(), "a function literal in "+name
	}
	c.rep.Reportf(pos, nil, "%s was not checked: its lock state did not settle within guardvet's budget; "+
		"split it into smaller functions, and please report it", name)
}

// access checks one read or write of a field or variable with directives.
func (c *checker) access(fn *lockstate.Func, acc *lockstate.Access) {
	name := types.ExprString(acc.Node)
	g := acc.Guard
	var decl []analysis.RelatedInformation // the message names the directive; no need to point at it
	if len(g.Only) > 0 && !allowed(fn, g.Only) {
		d := analysis.Diagnostic{Pos: acc.Pos, Related: decl, Message: fmt.Sprintf(
			"%s may only be touched in %s (//guard:only); call one of those helpers instead",
			name, strings.Join(g.OnlyAs, ", "))}
		// The getter may take locks; offered only where none is held (on
		// any path), so the call cannot deadlock on a lock held here.
		if sel, ok := acc.Node.(*ast.SelectorExpr); ok && g.Getter != "" && !acc.Write && !anyHeld(acc.State) {
			call := types.ExprString(sel.X) + "." + g.Getter + "()"
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Read " + name + " through " + call,
				TextEdits: []analysis.TextEdit{{Pos: sel.Pos(), End: sel.End(), NewText: []byte(call)}},
			}}
		}
		c.rep.Report(d)
		return // going through the helpers is the fix; they take the lock
	}
	verb := "read"
	if acc.Write {
		verb = "written"
	}
	if g.Atomic && !acc.Atomic {
		if len(g.By) == 0 {
			c.rep.Reportf(acc.Pos, decl, "%s %s without sync/atomic (//guard:atomic); use the sync/atomic functions (atomic.Load, Store, Add, ...) on &%s", name, verb, name)
			return
		}
		if acc.Write {
			c.rep.Reportf(acc.Pos, decl, "%s written without sync/atomic (//guard:atomic with //guard:by); writes need the lock and an atomic store", name)
			return
		}
	}
	if acc.Fresh {
		return // not yet visible to any other goroutine
	}
	if g.Atomic && acc.Atomic && !acc.Write {
		return // an atomic load needs no lock
	}
	for i, ref := range g.By {
		lock, shown := c.ls.LockFor(c.pass.Pkg, acc, ref)
		v := acc.State.Lock(lock)
		if (acc.Write && v.Mode == lockstate.Exclusive) || (!acc.Write && v.Mode.Held()) {
			continue
		}
		if take := fn.AccessAt(acc.Node); acc.Through && !v.Mode.Held() && take != nil && take.State.Lock(lock).Mode.Held() {
			continue // taken under the lock, used after its release: the escape rule's report
		}
		if i < len(g.Alias) && g.Alias[i].Text != "" {
			alias, _ := c.ls.LockFor(c.pass.Pkg, acc, g.Alias[i])
			if av := acc.State.Lock(alias); (acc.Write && av.Mode == lockstate.Exclusive) || (!acc.Write && av.Mode.Held()) {
				continue // held under its other name (+checklocksalias)
			}
		}
		if c.heldByCallers(fn, lock, acc.Write) {
			continue // an unannotated helper every caller calls with the lock held
		}
		if fn.Lit == nil && fn.Context == lockstate.Declared && c.ownObject(c.scopeOf(fn.Decl), acc.Node, false) {
			continue // made here, and no goroutine it was handed to still runs
		}
		need := "read- or write-locked"
		if acc.Write {
			need = "locked (not just read-locked)"
		}
		c.rep.Reportf(acc.Pos, decl, "%s %s while %s is %s; //guard:by %s needs %s %s: %s",
			name, verb, shown, stateText(v, lock), ref.Text, shown, need, c.accessFix(fn, acc, shown, v))
	}
}

func stateText(v lockstate.LockVal, lock lockpath.Path) string {
	if !lock.Valid() {
		return "not known to be held (it is reached through an expression guardvet cannot name)"
	}
	return v.Mode.String()
}

func (c *checker) accessFix(fn *lockstate.Func, acc *lockstate.Access, lock string, v lockstate.LockVal) string {
	switch {
	case acc.Write && v.Mode == lockstate.Shared:
		return "use " + lock + ".Lock instead of RLock for this write"
	case acc.Write && v.Mode == lockstate.Either:
		return "use " + lock + ".Lock, not RLock, on every path to this write"
	case v.Mode == lockstate.Maybe:
		return "make every path to here lock " + lock
	}
	fix := "lock " + lock + " around this access"
	if fn.Context == lockstate.Declared && !lockstate.IsFuncVar(fn.Obj) && acc.Base.Valid() && isParam(fn, acc.Base.Root) {
		verb := "rholds"
		if acc.Write {
			verb = "holds"
		}
		fix += ", or declare //guard:" + verb + " " + lock + " on " + fn.Obj.Name() + " if its callers hold it"
	}
	return fix
}

func isParam(fn *lockstate.Func, root types.Object) bool {
	_, ok := directives.ParamOf(fn.Obj.Type().(*types.Signature), root)
	return ok
}

// allowed reports whether fn (or the declaration a closure is in) is one of
// the //guard:only functions.
func allowed(fn *lockstate.Func, only []string) bool {
	key := directives.FuncKey(fn.Obj)
	for _, k := range only {
		if k == key {
			return true
		}
	}
	return false
}

// entryPoint says why fn starts with lock, rooted at its receiver, not
// held, or returns "": fn is an exported method and the lock an unexported
// field (callers outside the package cannot hold it), or a function
// started with go (a new goroutine holds nothing); and no call of fn in
// the package holds any lock.
func (c *checker) entryPoint(fn *lockstate.Func, lock lockpath.Path) string {
	if fn.Context != lockstate.Declared || !lock.Valid() {
		return ""
	}
	recv := fn.Obj.Type().(*types.Signature).Recv()
	if recv == nil || lock.Root != types.Object(recv) {
		return ""
	}
	if c.entries == nil {
		c.entries = map[*types.Func]bool{}
		lockedCall := map[*types.Func]bool{}
		for _, f := range c.ls.Funcs {
			for _, call := range f.Calls {
				if call.Callee != nil && len(call.State.Held()) > 0 {
					lockedCall[call.Callee.Origin()] = true
				}
			}
		}
		for _, file := range c.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					if callee := typeutil.StaticCallee(c.pass.TypesInfo, g.Call); callee != nil {
						c.entries[callee.Origin()] = true
					}
				}
				return true
			})
		}
		for fn := range lockedCall {
			c.entries[fn] = false
		}
	}
	obj := fn.Obj.Origin()
	if started, known := c.entries[obj]; known {
		if started {
			return fmt.Sprintf("%s is started with go", fn.Obj.Name())
		}
		return ""
	}
	sel := strings.Split(strings.TrimPrefix(lock.Sel, "."), ".")
	if !fn.Obj.Exported() || !exportedType(recv.Type()) || len(sel) == 0 || sel[len(sel)-1] == "" || token.IsExported(sel[len(sel)-1]) {
		// An exported method of an unexported type is reached only
		// through values the package hands out, perhaps while it holds
		// the lock (an io.Reader wrapper "for when b.mu is held").
		return ""
	}
	return fmt.Sprintf("%s is exported and callers outside the package cannot hold the unexported %s", fn.Obj.Name(), sel[len(sel)-1])
}

// exportedType reports whether t (or what it points to) is a named type
// that other packages can name.
func exportedType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Exported()
}

// contractCall checks a call against the callee's declared contract.
func (c *checker) contractCall(fn *lockstate.Func, call *lockstate.Call) {
	if call.Contract != nil && call.Contract.Convention != "" && fn.Context != lockstate.Goroutine &&
		strings.HasSuffix(c.pass.Fset.File(call.Node.Pos()).Name(), "_test.go") {
		// A name or a doc is weaker evidence than a directive, and tests
		// call helpers directly to set state up and inspect it, with
		// nothing else running as a rule. A goroutine the test starts is
		// still checked.
		return
	}
	callee := calleeName(call.Node)
	check := func(refs []directives.LockRef, verb string, ok func(lockstate.LockVal) bool, want, fix string) {
		for _, ref := range refs {
			lock := fn.RefAtCall(c.dirs, ref, call.Node, call.Callee)
			v := call.State.Lock(lock)
			if ok(v) {
				continue
			}
			if !lock.Valid() {
				// Reached through a call result or a computed index: like an
				// access to a field there, not known to be held.
				if call.Forced || call.Contract.Convention != "" {
					continue
				}
				shown := c.shownAtCall(ref, call.Node)
				c.rep.Reportf(call.Node.Lparen, nil,
					"call to %s needs %s %s (//guard:%s %s), but %s is %s; keep the object in a local variable and lock it before the call",
					callee, shown, want, verb, ref.Text, shown, stateText(v, lock))
				continue
			}
			entry := ""
			if call.Contract.Convention != "" && v.Mode == lockstate.Maybe && fn.Implied != nil && fn.Implied.Lock(lock).Mode.Held() && retakenBefore(fn, lock, call.Node.Pos()) {
				// Held on some paths only, in a function whose body shows
				// its caller holds the lock (it releases it first on a
				// path) and takes it back before the call (unlock, work,
				// relock): on the other paths it is still the caller's.
				// A name or a doc is not enough to report that.
				continue
			}
			if call.Contract.Convention != "" && v.Mode == lockstate.Unknown {
				// A name is weaker evidence than a directive: report only
				// where this function itself left the lock released, or
				// where no caller can hold it (an entry point).
				if entry = c.entryPoint(fn, lock); entry == "" {
					continue
				}
			}
			shown := c.shownAtCall(ref, call.Node)
			why := "//guard:" + verb + " " + ref.Text
			switch call.Contract.Convention {
			case directives.ByName:
				why = "its name ends in Locked; //guard:" + verb + " " + ref.Text + " on it makes this a checked directive"
			case directives.ByDoc:
				why = "its doc comment says so; //guard:" + verb + " " + ref.Text + " on it makes this a checked directive"
			}
			if entry != "" {
				c.rep.Reportf(call.Node.Lparen, nil,
					"call to %s needs %s %s (%s), but %s is not held here: %s, so no caller holds %s; %s",
					callee, shown, want, why, shown, entry, shown, strings.ReplaceAll(fix, "L", shown))
				continue
			}
			c.rep.Reportf(call.Node.Lparen, report.Related(v.Site, shown+" "+siteVerb(v)+" here"),
				"call to %s needs %s %s (%s), but %s is %s here; %s",
				callee, shown, want, why, shown, v.Mode, strings.ReplaceAll(fix, "L", shown))
		}
	}
	held := func(v lockstate.LockVal) bool { return v.Mode == lockstate.Exclusive }
	anyHeld := func(v lockstate.LockVal) bool { return v.Mode.Held() }
	notHeld := func(v lockstate.LockVal) bool { return !v.Mode.Held() }
	if k := call.Contract; k != nil {
		check(k.Holds, "holds", held, "locked", "lock L before the call")
		check(k.RHolds, "rholds", anyHeld, "read- or write-locked", "lock L before the call")
		if call.Forced {
			return // +checklocksforce: the line is taken as correct
		}
		check(k.Excludes, "excludes", notHeld, "not held", "unlock L before the call, or move the call out of the critical section")
		check(k.Releases, "releases", func(v lockstate.LockVal) bool { return v.Mode != lockstate.NotHeld }, "locked", "lock L before the call")
		check(k.RReleases, "rreleases", func(v lockstate.LockVal) bool { return v.Mode != lockstate.NotHeld }, "read-locked", "lock L before the call")
	}
}

// selfDeadlockCall reports a call that acquires a lock already held: by
// the callee's declared contract, and when effects is set (the package is
// in the scope of every rule) by its inferred effects too.
func (c *checker) selfDeadlockCall(fn *lockstate.Func, call *lockstate.Call, effects bool) {
	if call.Forced {
		return
	}
	callee := calleeName(call.Node)
	for _, k := range []*directives.Contract{call.Contract, call.Effects} {
		if k == nil || (k == call.Effects && !effects) {
			continue
		}
		for _, ref := range append(append([]directives.LockRef{}, k.Acquires...), k.RAcquires...) {
			lock := fn.RefAtCall(c.dirs, ref, call.Node, call.Callee)
			if v := call.State.Lock(lock); lock.Valid() && v.Mode == lockstate.Exclusive {
				shown := c.shownAtCall(ref, call.Node)
				c.rep.Reportf(call.Node.Lparen, report.Related(v.Site, shown+" locked here"),
					"call to %s locks %s, which is already locked here; sync mutexes are not reentrant, so this deadlocks: unlock %s before the call",
					callee, shown, shown)
			}
		}
	}
}

func siteVerb(v lockstate.LockVal) string {
	switch v.Mode {
	case lockstate.NotHeld:
		return "released"
	case lockstate.Maybe:
		return "changed"
	}
	return "locked"
}

// retakenBefore reports whether the last operation on lock before pos in
// fn's body, in source order, takes it (Lock, RLock).
func retakenBefore(fn *lockstate.Func, lock lockpath.Path, pos token.Pos) bool {
	var last *lockstate.LockOp
	for _, op := range fn.LockOps {
		if op.Lock == lock && op.Node.Pos() < pos && (last == nil || op.Node.Pos() > last.Node.Pos()) {
			last = op
		}
	}
	return last != nil && (last.Op == locks.Lock || last.Op == locks.RLock)
}

// shownAtCall prints a callee's lock path in the caller's terms: the
// receiver or argument expression followed by the rest of the path.
func (c *checker) shownAtCall(ref directives.LockRef, call *ast.CallExpr) string {
	if ref.Kind == directives.Global {
		return c.ls.GlobalShown(c.pass.Pkg, ref)
	}
	rest := ""
	if i := strings.IndexByte(ref.Text, '.'); i >= 0 {
		rest = ref.Text[i:]
	}
	recv, _, args := astq.CallOperands(c.pass.TypesInfo, call)
	base := recv
	if ref.Param != directives.Receiver {
		base = nil
		if ref.Param < len(args) {
			base = args[ref.Param]
		}
	}
	if base == nil {
		return ref.Text
	}
	return strings.TrimPrefix(types.ExprString(base), "&") + rest
}

// indentAt returns the white space before pos on its line, when pos is the
// first thing on the line.
func (c *checker) indentAt(pos token.Pos) (string, bool) {
	prefix, ok := srcpos.LinePrefix(c.pass.Fset, c.pass.ReadFile, pos)
	if !ok || strings.TrimSpace(prefix) != "" {
		return "", false
	}
	return prefix, true
}

func calleeName(call *ast.CallExpr) string {
	return types.ExprString(call.Fun)
}

func (c *checker) goStmt(g *lockstate.Go) {
	for _, ref := range g.Needs {
		shown := c.shownAtCall(ref, g.Node.Call)
		c.rep.Reportf(g.Node.Go, report.Related(g.Callee.Pos(), "contract declared here"),
			"go %s runs in a new goroutine, which holds no locks, but it needs %s held (//guard:... %s); lock %s inside the goroutine instead",
			calleeName(g.Node.Call), shown, ref.Text, shown)
	}
}

// lockOp checks lock calls that are wrong on every path to them.
func (c *checker) lockOp(op *lockstate.LockOp, relocked map[lockpath.Path]bool) {
	if op.Forced {
		return
	}
	sel := op.Node.Fun.(*ast.SelectorExpr)
	lock := types.ExprString(sel.X)
	name := sel.Sel.Name // op.Op, or a method recognised by its effect (NestedLock)
	b := op.Before
	// reportf reports at the call, with where the lock was last taken
	// or released (was: "locked", "read-locked", "released").
	reportf := func(was, format string, args ...any) {
		c.rep.Reportf(op.Node.Lparen, report.Related(b.Site, lock+" "+was+" here"), format, args...)
	}
	switch {
	case (op.Op == locks.Lock && b.Mode.Held()) || (op.Op == locks.RLock && b.Mode == lockstate.Exclusive):
		reportf("locked", "%s.%s() while %s is already %s; sync mutexes are not reentrant, so this deadlocks: unlock %s first, or remove this %s",
			lock, name, lock, b.Mode, lock, name)
	case op.Op.Releases() && b.Mode == lockstate.NotHeld && !relocked[op.Lock]:
		reportf("released", "%s.%s() but %s is not held here (unlocking an unlocked mutex is a fatal error); remove this %s",
			lock, name, lock, name)
	case op.Op == locks.Unlock && b.Mode == lockstate.Shared:
		reportf("read-locked", "%s.Unlock() but %s is read-locked here; use RUnlock to release a read lock", lock, lock)
	case op.Op == locks.Downgrade && b.Mode == lockstate.Shared:
		reportf("read-locked", "%s.%s() but %s is only read-locked here; only a write lock can be downgraded: take it with Lock, or remove this %s",
			lock, name, lock, name)
	case op.Op == locks.Downgrade && b.Mode == lockstate.NotHeld:
		reportf("released", "%s.%s() but %s is not held here; only a held write lock can be downgraded: take it with Lock first, or remove this %s",
			lock, name, lock, name)
	case op.Op == locks.RUnlock && b.Mode == lockstate.Exclusive:
		reportf("locked", "%s.RUnlock() but %s is write-locked here; use Unlock to release a write lock", lock, lock)
	}
}

// exitContract is what a declared function's contract says of its locks at
// its returns: for each lock, the directive that says it (for messages),
// the modes it allows, and whether it is acquired. A ...Locked method
// promises nothing about its exit: only the caller's side of the
// convention is checked.
func (c *checker) exitContract(fn *lockstate.Func) (declared map[lockpath.Path]string, want map[lockpath.Path]func(lockstate.Mode) bool, acquired map[lockpath.Path]bool) {
	declared, want, acquired = map[lockpath.Path]string{}, map[lockpath.Path]func(lockstate.Mode) bool{}, map[lockpath.Path]bool{}
	contract := c.dirs.Contract(fn.Obj)
	if contract == nil || contract.Convention != "" {
		return declared, want, acquired
	}
	for _, d := range []struct {
		verb string
		refs []directives.LockRef
		ok   func(lockstate.Mode) bool
	}{
		{"holds", contract.Holds, func(m lockstate.Mode) bool { return m == lockstate.Exclusive }},
		{"rholds", contract.RHolds, func(m lockstate.Mode) bool { return m.Held() }},
		{"acquires", contract.Acquires, func(m lockstate.Mode) bool { return m == lockstate.Exclusive }},
		{"racquires", contract.RAcquires, func(m lockstate.Mode) bool { return m == lockstate.Shared }},
		{"releases", contract.Releases, func(m lockstate.Mode) bool { return m == lockstate.NotHeld }},
		{"rreleases", contract.RReleases, func(m lockstate.Mode) bool { return m == lockstate.NotHeld }},
	} {
		for _, ref := range d.refs {
			if p := lockstate.RefInBody(c.dirs, fn.Obj.Type().(*types.Signature), ref); p.Valid() {
				declared[p] = d.verb + " " + ref.Text
				want[p] = d.ok
				acquired[p] = d.verb == "acquires" || d.verb == "racquires"
			}
		}
	}
	return declared, want, acquired
}

// returns checks lock balance at the returns of a declared function.
func (c *checker) returns(fn *lockstate.Func) {
	if fn.Context != lockstate.Declared || len(fn.Returns) == 0 {
		return
	}
	declared, want, acquired := c.exitContract(fn)
	// A function that acquires its locks only when it succeeds (see
	// lockstate.Conditional) is checked at each return by what the return
	// reports: success with the locks, failure without them.
	cond := c.ls.Conditional[fn.Obj]
	sig := fn.Obj.Type().(*types.Signature)
	for _, ret := range fn.Returns {
		if ret.Node != nil && c.dirs.ForcedAt(c.pass.Fset, ret.Pos) {
			continue // +checklocksforce on the return: its lock state is as the code needs
		}
		outcome := lockstate.OutcomeUnknown
		if cond {
			outcome = lockstate.ReturnOutcome(c.pass.TypesInfo, sig, ret.Node)
		}
		for _, p := range ret.Exit.Paths() {
			v := ret.Exit.Lock(p)
			if cond && acquired[p] {
				c.conditionalReturn(fn, ret, p, v, outcome, declared[p], want[p])
				continue
			}
			if ok, isDeclared := want[p]; isDeclared {
				if v.Mode != lockstate.Maybe && v.Mode != lockstate.Unknown && !ok(v.Mode) {
					c.rep.Reportf(ret.Pos, report.Related(v.Site, p.Local(c.pass.Pkg)+" "+siteVerb(v)+" here"),
						"%s returns with %s %s, breaking its //guard:%s contract; restore the lock state before returning",
						fn.Obj.Name(), p.Local(c.pass.Pkg), v.Mode, declared[p])
				}
				continue
			}
			if !v.Mode.Held() || fn.Implied.Lock(p).Mode == v.Mode {
				continue
			}
			if c.dirs.ForcedAt(c.pass.Fset, v.Site) {
				continue // held because a +checklocksforce line says so: the caller's, not taken here
			}
			if c.handedOver(fn, p, ret) {
				continue
			}
			if unlock, later := c.releasedLater(fn, p, ret.Pos); later && !c.signalled(fn, p) {
				d := analysis.Diagnostic{
					Pos:     ret.Pos,
					Message: fmt.Sprintf("return with %s still locked, but later paths unlock it; unlock %s before this return, or use defer %s right after locking", p.Local(c.pass.Pkg), p.Local(c.pass.Pkg), unlock),
					Related: report.Related(v.Site, p.Local(c.pass.Pkg)+" locked here"),
				}
				if ret.Node != nil && c.plainResults(ret.Node) {
					if indent, ok := c.indentAt(ret.Pos); ok {
						d.SuggestedFixes = []analysis.SuggestedFix{{
							Message:   "Call " + unlock + " before returning",
							TextEdits: []analysis.TextEdit{{Pos: ret.Pos, End: ret.Pos, NewText: []byte(unlock + "\n" + indent)}},
						}}
					}
				}
				c.rep.Report(d)
			}
		}
	}
}

// conditionalReturn checks one lock a function acquires only when it
// succeeds at one of its returns: a return that reports success must hold
// it, one that reports failure must not (its callers take the failure to
// mean nothing was locked, so nobody would release it). A return whose
// outcome the source does not show is not checked.
func (c *checker) conditionalReturn(fn *lockstate.Func, ret *lockstate.Return, p lockpath.Path, v lockstate.LockVal, outcome lockstate.Outcome, declared string, ok func(lockstate.Mode) bool) {
	succeeded, failed := "a nil error", "an error"
	if sig := fn.Obj.Type().(*types.Signature); sig.Results().Len() == 1 && !types.IsInterface(sig.Results().At(0).Type()) {
		succeeded, failed = "true", "false"
	}
	lock := p.Local(c.pass.Pkg)
	switch {
	case outcome == lockstate.Succeeds && v.Mode != lockstate.Maybe && v.Mode != lockstate.Unknown && !ok(v.Mode):
		c.rep.Reportf(ret.Pos, report.Related(v.Site, lock+" "+siteVerb(v)+" here"),
			"%s returns %s with %s %s, breaking its //guard:%s contract; take %s before reporting success",
			fn.Obj.Name(), succeeded, lock, v.Mode, declared, lock)
	case outcome == lockstate.Fails && v.Mode.Held():
		c.rep.Reportf(ret.Pos, report.Related(v.Site, lock+" locked here"),
			"%s returns %s with %s still locked, but it acquires %s only when it succeeds, so its callers will not release it; unlock %s before returning %s",
			fn.Obj.Name(), failed, lock, lock, lock, failed)
	}
}

// plainResults reports whether ret's results can be evaluated after the
// unlock the fix inserts before it: constants, nil and locals, combined by
// operators, unguarded package-level variables (errClosed). A field, a
// guarded variable, an index or a call might need the lock, so the fix is
// not offered there.
func (c *checker) plainResults(ret *ast.ReturnStmt) bool {
	plain := true
	for _, e := range ret.Results {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case nil, *ast.BasicLit, *ast.ParenExpr, *ast.UnaryExpr, *ast.BinaryExpr:
			case *ast.Ident:
				if v, ok := c.pass.TypesInfo.Uses[n].(*types.Var); ok && v.Parent() == v.Pkg().Scope() && c.dirs.Guard(v) != nil {
					plain = false // a guarded package-level variable
				}
			default:
				plain = false
			}
			return plain
		})
	}
	return plain
}

// handedOver reports whether the return hands lock p to someone else to
// release: it returns the local the lock is in (the caller unlocks what it
// gets, like gVisor's signalLock), or a closure made earlier that outlives
// the call releases it (cu.Add(func() { mu.Unlock() }) with a deferred
// cu.Clean() on the error paths).
func (c *checker) handedOver(fn *lockstate.Func, p lockpath.Path, ret *lockstate.Return) bool {
	if v, ok := p.Root.(*types.Var); ok && ret.Node != nil && fn.Resolver != nil && !isParam(fn, v) && v.Parent() != v.Pkg().Scope() {
		for _, e := range ret.Node.Results {
			if base := fn.Resolver.Of(e); base.Root == p.Root && (base.Sel == p.Sel || strings.HasPrefix(p.Sel, base.Sel+".")) {
				return true
			}
		}
	}
	for _, f := range c.ls.Funcs {
		if f.Lit == nil || f.Decl != fn.Decl || (f.Context != lockstate.Escaping && f.Context != lockstate.Goroutine) || f.Lit.Pos() > ret.Pos || len(f.Returns) == 0 {
			continue
		}
		released := true
		for _, r := range f.Returns {
			if r.Exit.Lock(p).Mode != lockstate.NotHeld {
				released = false
			}
		}
		if released {
			return true
		}
	}
	return false
}

// releasedLater reports whether the function releases p somewhere after pos
// in the source, by an Unlock or a call that releases it: the shape of a
// forgotten unlock on an early return, as opposed to a helper that
// deliberately returns with the lock held. It returns that release.
func (c *checker) releasedLater(fn *lockstate.Func, p lockpath.Path, pos token.Pos) (string, bool) {
	for _, op := range fn.LockOps {
		if op.Op.Releases() && op.Lock == p && op.Node.Pos() > pos {
			return types.ExprString(op.Node), true
		}
	}
	for _, call := range fn.Calls {
		if call.Node.Pos() <= pos {
			continue
		}
		for _, k := range []*directives.Contract{call.Contract, call.Effects} {
			if k == nil {
				continue
			}
			for _, ref := range append(append([]directives.LockRef{}, k.Releases...), k.RReleases...) {
				if fn.RefAtCall(c.dirs, ref, call.Node, call.Callee) == p {
					return types.ExprString(call.Node), true
				}
			}
		}
	}
	return "", false
}

// signalled reports whether a bool result tells the caller whether the lock
// is held: every return holding p returns one constant in some bool result
// and every return releasing it returns the other (lockIfReady() bool).
func (c *checker) signalled(fn *lockstate.Func, p lockpath.Path) bool {
	nres := fn.Obj.Type().(*types.Signature).Results().Len()
	for i := 0; i < nres; i++ {
		held, released, ok := map[bool]bool{}, map[bool]bool{}, true
		for _, ret := range fn.Returns {
			if ret.Node == nil || len(ret.Node.Results) != nres {
				ok = false
				break
			}
			tv := c.pass.TypesInfo.Types[ret.Node.Results[i]]
			if tv.Value == nil || tv.Value.Kind() != constant.Bool {
				ok = false
				break
			}
			b := constant.BoolVal(tv.Value)
			if ret.Exit.Lock(p).Mode.Held() {
				held[b] = true
			} else {
				released[b] = true
			}
		}
		if ok && len(held) == 1 && len(released) == 1 {
			for b := range held {
				if !released[b] {
					return true
				}
			}
		}
	}
	return false
}
