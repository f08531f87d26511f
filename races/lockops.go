package races

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Lock operations: the calls that take or release a lock the analysis
// can name (lockKey): sync's Mutex and RWMutex, a sync.Locker held in a
// field, a dependency's lock type.

// lockOp is a call that takes or releases a lock.
type lockOp struct {
	key     string
	acquire bool
}

// asLockOp recognises (*sync.Mutex).Lock, (*sync.RWMutex).RLock and their
// releases, on a lock the analysis can name.
func asLockOp(call *ssa.Call) (lockOp, bool) {
	return lockOpOf(call.Common())
}

// lockOpOf is asLockOp for a call's common part (a call's, a defer's).
func lockOpOf(c *ssa.CallCommon) (lockOp, bool) {
	if op, ok := lockerOp(c); ok {
		return op, true
	}
	callee := c.StaticCallee()
	if op, ok := depLockerOp(c, callee); ok {
		return op, true
	}
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" || len(c.Args) == 0 {
		return lockOp{}, false
	}
	recv := callee.Signature.Recv()
	if recv == nil {
		return lockOp{}, false
	}
	t := recv.Type().String()
	if t != "*sync.Mutex" && t != "*sync.RWMutex" {
		return lockOp{}, false
	}
	var acquire bool
	switch callee.Name() {
	case "Lock", "RLock":
		acquire = true
	case "Unlock", "RUnlock":
	default:
		return lockOp{}, false
	}
	return namedOp(c.Args[0], acquire)
}

// depLockerOp recognises Lock, Unlock, RLock and RUnlock called on a
// lock type of a dependency, whose body the analysis does not have: a
// type whose pointer implements sync.Locker (as go vet's copylocks
// takes it), and, for the read side, also has RLock and RUnlock
// (go-deadlock's Mutex and RWMutex, xsync's RBMutex, whose RLock returns
// a token). The lock is named by where the value is held, as a
// sync.Mutex's is. A lock type of the program's own is followed into
// instead: its body says what it takes.
func depLockerOp(c *ssa.CallCommon, callee *ssa.Function) (lockOp, bool) {
	if callee == nil || callee.Blocks != nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() == "sync" || len(c.Args) == 0 {
		return lockOp{}, false
	}
	recv := callee.Signature.Recv()
	if recv == nil {
		return lockOp{}, false
	}
	ptr, ok := types.Unalias(recv.Type()).(*types.Pointer)
	if !ok {
		return lockOp{}, false
	}
	mset := types.NewMethodSet(ptr)
	method := func(name string) *types.Signature {
		sel := mset.Lookup(callee.Pkg.Pkg, name)
		if sel == nil {
			return nil
		}
		sig, _ := sel.Type().(*types.Signature)
		return sig
	}
	plain := func(name string) bool {
		sig := method(name)
		return sig != nil && sig.Params().Len() == 0 && sig.Results().Len() == 0
	}
	if !plain("Lock") || !plain("Unlock") {
		return lockOp{}, false // not a sync.Locker
	}
	var acquire bool
	switch callee.Name() {
	case "Lock":
		acquire = true
	case "Unlock":
	case "RLock", "RUnlock":
		if method("RLock") == nil || method("RUnlock") == nil {
			return lockOp{}, false
		}
		acquire = callee.Name() == "RLock"
	default:
		return lockOp{}, false
	}
	return namedOp(c.Args[0], acquire)
}

// lockerOp recognises Lock and Unlock called through a sync.Locker held
// in a field, most often a sync.Cond's L (q.cond.L.Lock()): the lock is
// named by where the Locker is held (Queue.cond.L).
func lockerOp(c *ssa.CallCommon) (lockOp, bool) {
	if !c.IsInvoke() || c.Value.Type().String() != "sync.Locker" {
		return lockOp{}, false
	}
	var acquire bool
	switch c.Method.Name() {
	case "Lock":
		acquire = true
	case "Unlock":
	default:
		return lockOp{}, false
	}
	return namedOp(c.Value, acquire)
}

// namedOp is the operation on the lock v points to, if the analysis can
// name it (lockKey).
func namedOp(v ssa.Value, acquire bool) (lockOp, bool) {
	key := lockKey(v)
	if key == "" {
		return lockOp{}, false
	}
	return lockOp{key: key, acquire: acquire}, true
}
