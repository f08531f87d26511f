package lockstate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// The records the engine keeps of each analysed body, which the rules
// read: its accesses, calls, lock operations, returns, goroutines,
// channel operations, uses of references and of shared variables, each
// with the lock state there.

// Context says how a function body is entered.
type Context uint8

const (
	Declared  Context = iota // a function or method declaration
	Inline                   // a closure called where it is written, or by a synchronous callback
	Deferred                 // a deferred closure
	Goroutine                // a closure started with go
	Escaping                 // a closure stored, returned or passed on: runs later, no locks held
)

// Func is one analysed body, with its events in source order.
type Func struct {
	Decl    *ast.FuncDecl // the enclosing declaration (also for closures)
	Lit     *ast.FuncLit  // the closure, or nil for the declaration itself
	Obj     *types.Func   // the declared function
	Context Context
	Entry   *State
	// Implied is Entry with what the body shows about the locks it does
	// not mention: a lock it releases first is held by its caller (a
	// helper that steps out of its caller's lock), one it takes first is
	// not. Balance is measured against it.
	Implied  *State
	Accesses []*Access
	Calls    []*Call
	LockOps  []*LockOp
	Returns  []*Return
	Gos      []*Go
	GoStarts []*GoStart
	ChanOps  []*ChanOp
	RefUses  []*RefUse
	// Vars are the reads and writes of package-level variables, of
	// locals some closure of the declaration captures, and of the
	// declaration's pointer, slice and map parameters, with the locks held
	// there. Recorded only when the configuration asks for them
	// (config.Config.RecordVars, the shared rule).
	Vars []*VarAccess
	// MapEntries are the deletes and stores of entries of maps whose
	// values are or hold locks (a map of per-key locks).
	MapEntries []*MapEntry
	// Candidates are accesses to fields without directives whose struct
	// holds a lock (Guard is nil), recorded only for guard inference.
	Candidates []*Access
	Resolver   *lockpath.Resolver
	// Unconverged is set when the dataflow hit its visit budget before
	// reaching a fixpoint. The function's events are dropped (nothing is
	// reported from states that are not final) and guardedby reports the
	// function as not checked.
	Unconverged bool
}

// Body is the body the events are for: the closure's, or the
// declaration's.
func (f *Func) Body() *ast.BlockStmt {
	if f.Lit != nil {
		return f.Lit.Body
	}
	if f.Decl != nil {
		return f.Decl.Body
	}
	return nil
}

// Access is a read or write of a field or package-level variable that has
// directives.
type Access struct {
	Node   ast.Expr   // the selector (x.f) or identifier
	Pos    token.Pos  // of the field or variable name
	Var    *types.Var // the field or variable
	Guard  *directives.FieldGuard
	Base   lockpath.Path // the struct holding a field (x, or x.Embedded); invalid for variables
	Write  bool
	Atomic bool // through a sync/atomic function or type
	Fresh  bool // on an object allocated here and not yet published
	// Through is set for a write through a local that points into the
	// field (p := &x.f; *p = v): Node is where the address was taken, Pos
	// where it is used.
	Through bool
	State   *State
}

// Call is a static call, with the callee's declared contract and inferred
// effects (either may be nil).
type Call struct {
	Node     *ast.CallExpr
	Callee   *types.Func
	Contract *directives.Contract // declared
	Effects  *directives.Contract // inferred, may be nil
	State    *State               // before the call; for a deferred call, at the returns it runs at
	Deferred bool
	// InPlace are the indexes of the arguments that are functions of
	// the package named, not called (a method value s.evict, a function
	// f), handed to a parameter the callee only calls in place before it
	// returns: each is called here, with State's locks, as a literal
	// there would be (callbacks.go).
	InPlace []int
	// Forced: the call is on a +checklocksforce line, so the locks its
	// contract needs were taken as held (State has them) and its other
	// lock requirements are not to be reported.
	Forced bool
}

// LockOp is x.Lock(), x.Unlock() and friends.
type LockOp struct {
	Node   *ast.CallExpr
	Op     locks.Op
	Lock   lockpath.Path
	Before LockVal
	State  *State
	// Forced: on a +checklocksforce line, which says the lock state there
	// is what the code needs; rules do not report the operation.
	Forced bool
}

// Return is a return point (explicit, or the end of the body) with the state
// after deferred calls have run.
type Return struct {
	Pos  token.Pos
	Node *ast.ReturnStmt // nil for the end of the body
	Exit *State
}

// RefUse is a use of a local that holds a reference into a guarded field
// (p := &x.f, or m := x.m for a map or slice), with the locks held there.
type RefUse struct {
	Var    *types.Var
	Node   ast.Expr
	Source ast.Expr // the x.f it was taken from
	State  *State
}

// VarKind says how a VarAccess uses its variable.
type VarKind uint8

const (
	VarRead        VarKind = iota // the value is read (or the variable is a selector base)
	VarWrite                      // the variable is assigned, or its address escapes
	VarDeref                      // the pointee is written (p.f = v): not the variable
	VarAtomic                     // through sync/atomic
	VarAddrCompare                // &x compared or read through, not written
)

// VarAccess is a use of a package-level variable, or of a local that a
// closure of the same declaration captures.
type VarAccess struct {
	Node  *ast.Ident
	Var   *types.Var
	Kind  VarKind
	State *State
}

// ChanKind is the kind of a channel operation.
type ChanKind uint8

const (
	Send ChanKind = iota
	Receive
	RangeReceive // for v := range ch
	Select       // a select statement (its cases are not recorded separately)
)

// ChanOp is a channel operation, or a select, with the locks held there.
type ChanOp struct {
	Node        ast.Node // *ast.SendStmt, *ast.UnaryExpr (<-ch), *ast.RangeStmt or *ast.SelectStmt
	Kind        ChanKind
	NonBlocking bool // a select with a default case
	State       *State
}

// MapEntry is delete(m, k), or a store m[k] = v, on a map whose values
// are locks or hold one (map[string]*sync.Mutex, map[K]*entry with a mutex
// field), with the locks held just before it.
type MapEntry struct {
	Node  ast.Node // the delete call, or the assignment
	Map   ast.Expr // m
	Key   ast.Expr // k
	Value ast.Expr // v; nil for delete
	State *State
}

// GoStart is a go statement that starts a function literal (in place, or
// through a local that holds it), with the starter's locks there: the
// goroutine does not hold them, but while the starter keeps one until it
// joins the goroutine, nothing else holding it runs (see guardinfer).
type GoStart struct {
	Node  ast.Node // the *ast.GoStmt, or the call (g.Go(f), wg.Go(f), time.AfterFunc(d, f))
	Lit   *ast.FuncLit
	State *State
}

// Go is a go statement calling a function with a contract that needs
// locks held, which the new goroutine does not hold.
type Go struct {
	Node     *ast.GoStmt
	Callee   *types.Func
	Contract *directives.Contract
	// Needs are the contract's locks the goroutine needs held and was not
	// handed: a lock the starter holds and the callee releases (by its
	// contract or its inferred effect) is handed off to the goroutine.
	Needs []directives.LockRef
}

// CFG builds the go/cfg graph of the body, the one the dataflow ran over
// (the same calls end a path: panic, os.Exit, t.Fatal...), for rules that
// need control flow: post-dominance, paths between two nodes. It is built
// again on each call rather than kept: a graph for every function of
// every package, kept until the run ends, costs more memory than building
// the few that are asked for.
func (f *Func) CFG() *cfg.CFG {
	body := f.Decl.Body
	if f.Lit != nil {
		body = f.Lit.Body
	}
	if body == nil || f.Resolver == nil {
		return nil
	}
	return flowgraph.New(f.Resolver.Info, body)
}

// AccessAt returns the recorded access whose node is e, if any.
func (f *Func) AccessAt(e ast.Expr) *Access {
	e = ast.Unparen(e)
	for _, acc := range f.Accesses {
		if acc.Node == e {
			return acc
		}
	}
	return nil
}

// Bodies groups the analysed bodies by declared function: its own body
// and the closures that run as part of it (called in place, deferred, or
// by a synchronous callback). Rules summarise functions over these.
func (r *Result) Bodies() map[*types.Func][]*Func {
	out := map[*types.Func][]*Func{}
	for _, f := range r.Funcs {
		if f.Context == Declared || f.Context == Inline || f.Context == Deferred {
			out[f.Obj] = append(out[f.Obj], f)
		}
	}
	return out
}

// EveryReturn reports whether the declared body among bodies (a
// function's entry in Bodies) has one result and returns at least once,
// and pred holds of the value every return statement returns (those of
// closures in it aside): a constructor that returns what it allocated, a
// function that returns a count it decremented.
func EveryReturn(bodies []*Func, pred func(decl *Func, result ast.Expr) bool) bool {
	var decl *Func
	for _, b := range bodies {
		if b.Lit == nil {
			decl = b
		}
	}
	if decl == nil || decl.Decl.Body == nil || decl.Obj.Type().(*types.Signature).Results().Len() != 1 {
		return false
	}
	found, all := false, true
	ast.Inspect(decl.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
			all = all && len(n.Results) == 1 && pred(decl, n.Results[0])
		}
		return all
	})
	return found && all
}
