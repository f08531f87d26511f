package lockstate

import (
	"hash/maphash"
	"iter"

	"github.com/benbjohnson/immutable"

	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
)

// The locks of a State are a persistent map (a hash array mapped trie):
// a state handed to an event is never changed, and the next state shares
// all but the path to the entry it changes. A Go map would have to be
// copied whole on the first write after each event, and a long function
// that takes many locks would cost time and memory quadratic in their
// number (issue: 2,000 package-level locks in one function took 10 s and
// 1 GB). benbjohnson/immutable is a small, tested HAMT with a pluggable
// hasher, which lockpath.Path needs.

// pathSeed seeds the hash of lock paths. Set once at start-up and only
// read afterwards; the hash decides the layout of the trie, never an
// output (whatever lists locks sorts them).
var pathSeed = maphash.MakeSeed()

type pathHasher struct{}

func (pathHasher) Hash(p lockpath.Path) uint32 {
	h := maphash.Comparable(pathSeed, p)
	return uint32(h ^ h>>32)
}

func (pathHasher) Equal(a, b lockpath.Path) bool { return a == b }

// lockMap is nil for no locks.
type lockMap = *immutable.Map[lockpath.Path, LockVal]

func newLockBuilder() *immutable.MapBuilder[lockpath.Path, LockVal] {
	return immutable.NewMapBuilder[lockpath.Path, LockVal](pathHasher{})
}

// lockGet returns m's value for p.
func lockGet(m lockMap, p lockpath.Path) (LockVal, bool) {
	if m == nil {
		return LockVal{}, false
	}
	return m.Get(p)
}

// lockLen returns the number of locks in m.
func lockLen(m lockMap) int {
	if m == nil {
		return 0
	}
	return m.Len()
}

// lockEntries ranges over m in an order that depends on the hash: callers
// that print or report sort what they collect.
func lockEntries(m lockMap) iter.Seq2[lockpath.Path, LockVal] {
	return func(yield func(lockpath.Path, LockVal) bool) {
		if m == nil {
			return
		}
		for it := m.Iterator(); !it.Done(); {
			p, v, _ := it.Next()
			if !yield(p, v) {
				return
			}
		}
	}
}

// lockSet returns m with p set to v.
func lockSet(m lockMap, p lockpath.Path, v LockVal) lockMap {
	if m == nil {
		m = immutable.NewMap[lockpath.Path, LockVal](pathHasher{})
	}
	return m.Set(p, v)
}

// lockDelete returns m without p.
func lockDelete(m lockMap, p lockpath.Path) lockMap {
	if m == nil {
		return nil
	}
	if m = m.Delete(p); m.Len() == 0 {
		return nil
	}
	return m
}

// locksEqual reports whether a and b hold the same locks and values.
func locksEqual(a, b lockMap) bool {
	if a == b {
		return true
	}
	if lockLen(a) != lockLen(b) {
		return false
	}
	for p, va := range lockEntries(a) {
		if vb, ok := lockGet(b, p); !ok || vb != va {
			return false
		}
	}
	return true
}
