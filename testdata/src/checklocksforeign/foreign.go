// Package checklocksforeign holds the +check... annotations of gVisor's
// other analyzers (checkescape, checkconst's +checkoffset, checkaligned,
// ...), which guardvet leaves alone, next to near-misses of checklocks
// names, which it reports, and checklocks annotations with a reason after
// a colon, as gVisor writes them.
package checklocksforeign

import (
	"sync"
	"unsafe"
)

// +checkalignedignore
type T struct {
	mu sync.Mutex

	// +checkatomic: written with atomic.Store
	hits int64 // want hits:`guard\(atomic\)`

	// +checklocks:mu
	n int // want n:`guard\(by mu\)`

	// +checkloks:mu // want `unknown checklocks annotation \+checkloks; did you mean \+checklocks\?`
	a int

	// +checklocksx:mu // want `unknown checklocks annotation \+checklocksx; did you mean \+checklocks\?`
	b int

	// +checklocksexcludes:mu // want `unknown checklocks annotation \+checklocksexcludes; did you mean \+checklocksexclude\?`
	c int
}

const off = unsafe.Offsetof(T{}.n) // +checkoffset . T.n

// +checkconst . off
const size = 8

// +checkescape:hard,stack
func noEscape() {}

// +checkescape:all
// +checkinvariants
func alsoForeign() {}

// +checklocksfail
func expectedFailure() {}

// +checklocksexcludewrite:t.mu
func (t *T) notApplied() {}

// +checklocksignore: we don't have to hold locks during initialization.
func New() *T { // want New:`contract\(ignore\)`
	return &T{n: 1}
}

func (t *T) Forced() int {
	return t.n // +checklocksforce: the caller holds t.mu, which no annotation can say.
}

func (t *T) Ignored() int {
	return t.n // +checklocksignore: a racy read is fine for statistics.
}

// +checklocksreleaseall:t.mu // want `unknown checklocks annotation \+checklocksreleaseall; did you mean \+checklocksrelease\?`
func (t *T) releaseAll() {}

// +checklockz // want `unknown checklocks annotation \+checklockz; did you mean \+checklocks\?`
func (t *T) misspelt() {}
