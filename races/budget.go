package races

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
)

// ErrTooLarge is what a run returns when the program needs more memory
// than the machine has available: a clear message, not an out-of-memory
// kill.
var ErrTooLarge = errors.New("the program is too large for the memory available")

// budget stops a run before it takes the machine's memory: it reads the
// heap every so many steps of the long loops (the points-to solver, the
// roots' traversals) and fails once the heap passes the limit.
type budget struct {
	limit uint64 // bytes; 0: no limit
	steps int
	err   error
}

// newBudget allows three quarters of the memory available when the run
// starts (MemAvailable in /proc/meminfo), or limit bytes if not 0.
func newBudget(limit uint64) *budget {
	if limit == 0 {
		limit = available() / 4 * 3
	}
	return &budget{limit: limit}
}

// step counts one step of work and reports whether the run may go on.
func (b *budget) step() bool {
	if b.err != nil {
		return false
	}
	if b.limit == 0 {
		return true
	}
	b.steps++
	if b.steps != 1 && b.steps%(1<<16) != 0 { // the first step, then every 65,536
		return true
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > b.limit {
		b.err = fmt.Errorf("%w: the analysis passed %d MB of heap, three quarters of what the machine had available; name fewer packages (guardvet races ./some/pkg/...)", ErrTooLarge, b.limit>>20)
		return false
	}
	return true
}

// available is MemAvailable from /proc/meminfo in bytes, 0 if unknown.
func available() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
