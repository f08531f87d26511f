// Package globals covers package-level variables guarded by package-level
// locks.
package globals

import "sync"

var (
	mu      sync.Mutex
	counter int //guard:by mu

	// Mu guards Config.
	Mu     sync.RWMutex
	Config map[string]string //guard:by Mu
)

//guard:by mu
var hits int

var state struct {
	n    int
	name string
} //guard:by mu

func Inc() {
	mu.Lock()
	counter++
	hits++
	mu.Unlock()
}

func IncDefer() {
	mu.Lock()
	defer mu.Unlock()
	counter++
	state.n++
	state.name = "x"
}

func Racy() int {
	return counter // want `counter read while mu is not known to be held`
}

func RacyVar() {
	hits = 0 // want `hits written while mu is not known to be held`
}

func RacyStruct() {
	state.n = 1 // want `state written while mu is not known to be held`
}

func AfterUnlock() {
	mu.Lock()
	counter++
	mu.Unlock()
	counter-- // want `counter written while mu is not held`
}

func Get(k string) string {
	Mu.RLock()
	defer Mu.RUnlock()
	return Config[k]
}

func Set(k, v string) {
	Mu.Lock()
	defer Mu.Unlock()
	Config[k] = v
}

func SetUnderRead(k, v string) {
	Mu.RLock()
	defer Mu.RUnlock()
	Config[k] = v // want `Config written while Mu is read-locked`
}

func Reset() {
	Config = nil // want `Config written while Mu is not known to be held`
}

// ---- contracts and helpers on global locks ----

//guard:holds mu
func incLocked() { counter++ }

//guard:holds Mu
func SetLocked(k, v string) { Config[k] = v }

//guard:excludes mu
func IncTwice() {
	Inc()
	Inc()
}

func callIncLocked() {
	mu.Lock()
	incLocked()
	mu.Unlock()
}

func callIncLockedUnlocked() {
	incLocked() // want `call to incLocked needs mu locked \(//guard:holds mu\), but mu is not known to be held here`
}

func callIncTwiceLocked() {
	mu.Lock()
	defer mu.Unlock()
	IncTwice() // want `call to IncTwice needs mu not held \(//guard:excludes mu\), but mu is locked here`
}

// Unannotated helpers with a fixed effect on a global lock.
func LockConfig()   { Mu.Lock() }
func UnlockConfig() { Mu.Unlock() }
func lockAll()      { mu.Lock() }
func unlockAll()    { mu.Unlock() }

func viaHelpers() {
	lockAll()
	counter++
	unlockAll()
	LockConfig()
	Config["a"] = "b"
	UnlockConfig()
}

func viaHelpersAfterUnlock() {
	lockAll()
	unlockAll()
	counter++ // want `counter written while mu is not held`
}

// A local variable that shadows nothing guarded.
func shadow() {
	counter := 1
	counter++
	_ = counter
}

// A local alias of a package-level lock.
func viaAlias() {
	m := &mu
	m.Lock()
	counter++
	m.Unlock()
}
