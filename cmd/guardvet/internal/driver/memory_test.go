package driver

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestHeapCeiling: the ceiling is a soft limit above the live heap, at
// ceilingPercent of it (at least of 256 MiB), and a GOMEMLIMIT the user
// set is left alone.
func TestHeapCeiling(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "")
	heapCeiling()
	got := debug.SetMemoryLimit(-1)
	if low := int64(256<<20) * ceilingPercent / 100; got < low || got == math.MaxInt64 {
		t.Errorf("limit after heapCeiling = %d; want a finite limit of at least %d", got, low)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "8GiB")
	heapCeiling()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, heapCeiling changed the limit to %d", got)
	}
}
