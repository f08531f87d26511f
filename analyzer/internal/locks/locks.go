// Package locks decides which values are locks and which calls operate on
// them. A lock is recognised by its method set, never by its type name, so
// sync.Mutex, sync.RWMutex, sync.Locker, embedded mutexes and wrapper types
// (a deadlock-detecting Mutex that embeds sync.Mutex) are all locks.
package locks

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// Op is an operation on a lock.
type Op uint8

const (
	NoOp Op = iota
	Lock
	Unlock
	RLock
	RUnlock
	TryLock
	TryRLock
	// Downgrade turns a write lock into a read lock without releasing it
	// (DowngradeLock, on gVisor's sync.RWMutex and the wrappers around it).
	Downgrade
)

var opNames = map[string]Op{
	"Lock": Lock, "Unlock": Unlock, "RLock": RLock, "RUnlock": RUnlock,
	"TryLock": TryLock, "TryRLock": TryRLock, "DowngradeLock": Downgrade,
}

func (op Op) String() string {
	for name, o := range opNames {
		if o == op {
			return name
		}
	}
	return "?"
}

// Acquires reports whether op takes the lock (in some mode).
func (op Op) Acquires() bool { return op == Lock || op == RLock }

// Releases reports whether op releases the lock.
func (op Op) Releases() bool { return op == Unlock || op == RUnlock }

// IsOpName reports whether name is the name of a lock method. It lets callers
// pre-filter syntax cheaply before asking the type checker.
func IsOpName(name string) bool { _, ok := opNames[name]; return ok }

type kind uint8

const (
	notLock kind = iota
	mutex
	rwmutex
)

// IsLock reports whether values of type t are locks: their (pointer) method
// set has Lock() and Unlock(). rw is true when it also has RLock and RUnlock.
//
// There is no cache: one keyed by types.Type, shared by every package of a
// run, would keep each package's type graph alive until the run ends (it
// did: under -infer, every field's type of every package). A cheap test
// first rules out the types that cannot have a Lock method.
func IsLock(t types.Type) (isLock, rw bool) {
	if t == nil {
		return false, false
	}
	k := classify(t)
	return k != notLock, k == rwmutex
}

// mayHaveLock reports whether t might have a Lock method: only a named type
// declaring one, an interface listing one, or a struct embedding such a
// type (through which it is promoted) can. It allocates nothing; the
// method set decides for the few types that pass.
func mayHaveLock(t types.Type, depth int) bool {
	if depth > 4 {
		return true // let the method set decide
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		for i := 0; i < n.NumMethods(); i++ {
			if n.Method(i).Name() == "Lock" {
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for i := 0; i < u.NumMethods(); i++ {
			if u.Method(i).Name() == "Lock" {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Embedded() && mayHaveLock(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

func classify(t types.Type) kind {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		// A pointer to a lock is a lock too: mu *sync.Mutex. A defined
		// pointer type (type P *sync.Mutex) is not: it has no methods.
		t = p.Elem()
	}
	if !mayHaveLock(t, 0) {
		return notLock
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
		switch n.Obj().Name() {
		case "Mutex":
			return mutex // the common case, without a method set
		case "RWMutex":
			return rwmutex
		}
	}
	// types.LookupFieldOrMethod with addressable set finds what the pointer's
	// method set would, without building the whole set (NewMethodSet was a
	// quarter of a run's time on large packages).
	has := func(name string) bool {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		fn, ok := obj.(*types.Func)
		if !ok {
			return false
		}
		sig, ok := fn.Type().(*types.Signature)
		return ok && sig.Params().Len() == 0 && sig.Results().Len() == 0
	}
	if !has("Lock") || !has("Unlock") {
		return notLock
	}
	if has("RLock") && has("RUnlock") {
		return rwmutex
	}
	return mutex
}

// EmbeddedPath returns the implicit embedded fields through which t's Lock
// method is promoted, so that c.Lock() (c embeds sync.RWMutex) and a
// directive naming RWMutex both denote c.RWMutex, and a wrapper type
// `type M struct{ sync.Mutex }` without its own Lock normalises to M.Mutex.
func EmbeddedPath(t types.Type, pkg *types.Package) []string {
	if types.IsInterface(t) {
		return nil
	}
	obj, index, _ := types.LookupFieldOrMethod(t, true, pkg, "Lock")
	if obj == nil || len(index) < 2 {
		return nil
	}
	return astq.FieldNames(t, index[:len(index)-1])
}

// ImplicitFields returns the names of embedded fields that a selection walks
// through implicitly (all but the last index).
func ImplicitFields(sel *types.Selection) []string {
	steps, _ := astq.Implicit(sel)
	var names []string
	for _, f := range steps {
		names = append(names, f.Name())
	}
	return names
}

// Call describes a call to a lock method, x.Lock() and friends.
type Call struct {
	Op       Op
	Receiver ast.Expr // x in x.Lock()
	Implicit []string // embedded fields between x and the method's receiver
}

// AsCall recognises a call to a lock method on a lock value.
func AsCall(info *types.Info, call *ast.CallExpr) (Call, bool) {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !IsOpName(se.Sel.Name) {
		return Call{}, false
	}
	sel := info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return Call{}, false
	}
	ok, rw := IsLock(sel.Recv())
	op := opNames[se.Sel.Name]
	if !ok || (op == Downgrade && !rw) {
		return Call{}, false
	}
	return Call{Op: op, Receiver: se.X, Implicit: ImplicitFields(sel)}, true
}

// MethodOf reports whether fn is a method of the named type pkgPath.typeName
// (on a value or pointer receiver): MethodOf(fn, "sync", "Cond") for
// (*sync.Cond).Wait.
func MethodOf(fn *types.Func, pkgPath, typeName string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgPath {
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
	return ok && n.Obj().Name() == typeName
}

// HasLockField reports whether a struct has a lock field, named or
// embedded (false for nil).
func HasLockField(st *types.Struct) bool {
	for i := 0; st != nil && i < st.NumFields(); i++ {
		if lock, _ := IsLock(st.Field(i).Type()); lock {
			return true
		}
	}
	return false
}

// PackageLocks returns pkg's package-level lock variables, by name.
func PackageLocks(pkg *types.Package) []*types.Var {
	var out []*types.Var
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		if v, ok := scope.Lookup(name).(*types.Var); ok {
			if lock, _ := IsLock(v.Type()); lock {
				out = append(out, v)
			}
		}
	}
	return out
}

// HolderHasLock reports whether the struct that declares the selected
// field has a lock field (named or embedded): its fields are what guard
// inference weighs.
func HolderHasLock(sel *types.Selection) bool {
	h := astq.Holder(sel)
	if h == nil {
		return false
	}
	st, _ := astq.StructOf(h)
	return HasLockField(st)
}

// ParentHasLock reports whether a field access x.p.f reaches f's object
// through a field p of a struct that has a lock: the parent object, whose
// lock may guard f (guard inference).
func ParentHasLock(info *types.Info, e *ast.SelectorExpr) bool {
	in, ok := ast.Unparen(e.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := info.Selections[in]
	return sel != nil && sel.Kind() == types.FieldVal && HolderHasLock(sel)
}
