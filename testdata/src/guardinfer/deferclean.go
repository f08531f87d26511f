package guardinfer

import "sync"

// A constructor that defers a clean-up closure over its new object (pebble's
// Open: defer func() { if db == nil { ... d.cacheHandle.Close() ... } }()):
// the closure runs on this goroutine as the constructor returns, and
// shares nothing, so the set-up after it (v.size = 1) is still on an
// object no other goroutine can reach. (The method value stored in the
// object's own field before it, as Open stores d.commitApply, is why the
// engine's own freshness no longer covers the object here.) A
// constructor that registers the object first (OpenListedVault) has
// shared it, and the set-up's unlocked write is reported.
type Vault struct {
	mu    sync.Mutex
	size  int
	count int
	name  string
	hook  func()
}

func (v *Vault) release() {}

func discard(v *Vault) { v.name = "" }

func OpenVault(fail bool) (*Vault, bool) {
	v := &Vault{}
	v.hook = v.release
	ok := false
	defer func() {
		if !ok {
			discard(v)
		}
	}()
	v.size = 1
	ok = !fail
	return v, ok
}

var listedVaults []*Vault

func OpenListedVault() *Vault {
	v := &Vault{}
	listedVaults = append(listedVaults, v)
	v.count = 1 // want `v.count is accessed with v.mu held at`
	return v
}

func (v *Vault) Grow(n int) {
	v.mu.Lock()
	v.size += n
	v.count++
	v.mu.Unlock()
}

func (v *Vault) Shrink(n int) {
	v.mu.Lock()
	v.size -= n
	v.count--
	v.mu.Unlock()
}

func (v *Vault) Clear() {
	v.mu.Lock()
	v.size, v.count = 0, 0
	v.mu.Unlock()
}

func (v *Vault) Size() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.size
}

func (v *Vault) Count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.count
}

func (v *Vault) Stats() (int, int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.size, v.count
}

func (v *Vault) Empty() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.size == 0 && v.count == 0
}

func (v *Vault) Full(n int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.size >= n || v.count >= n
}

func (v *Vault) Set(s, c int) {
	v.mu.Lock()
	v.size, v.count = s, c
	v.mu.Unlock()
}

func (v *Vault) Recount() {
	v.mu.Lock()
	v.count = v.size
	v.mu.Unlock()
}
