// Package use touches the guarded variables of package globals through
// qualified identifiers.
package use

import "globals"

func get(k string) string {
	globals.Mu.RLock()
	defer globals.Mu.RUnlock()
	return globals.Config[k]
}

func set(k, v string) {
	globals.Mu.Lock()
	globals.Config[k] = v
	globals.SetLocked(k, v)
	globals.Mu.Unlock()
}

func viaHelpers(k, v string) {
	globals.LockConfig()
	globals.Config[k] = v
	globals.UnlockConfig()
}

func racy(k string) string {
	return globals.Config[k] // want `globals.Config read while globals.Mu is not known to be held`
}

func writeUnderRead(k, v string) {
	globals.Mu.RLock()
	defer globals.Mu.RUnlock()
	globals.Config[k] = v // want `globals.Config written while globals.Mu is read-locked`
}

func afterHelperUnlock(k, v string) {
	globals.LockConfig()
	globals.UnlockConfig()
	globals.Config[k] = v // want `globals.Config written while globals.Mu is not held`
}

func callSetLocked(k, v string) {
	globals.SetLocked(k, v) // want `call to globals.SetLocked needs globals.Mu locked \(//guard:holds Mu\), but globals.Mu is not known to be held here`
}

func callIncTwice() {
	globals.IncTwice()
}
