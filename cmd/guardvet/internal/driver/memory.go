package driver

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// ceilingPercent is the heap ceiling, in percent of the heap the loaded
// packages take. Twice (the goal the collector itself sets after a
// collection there) left std -infer at 4.3-4.4 GB, 1.2-1.3 times the
// default run's peak, which varies between 3.4 and 3.7 GB from run to
// run; 185% keeps it near 4.1 GB for about 2 s more (33 s against 31 s),
// and 175% near 3.9 GB for 5 s more.
const ceilingPercent = 185

// heapCeiling sets a soft memory limit for the analysis of loaded
// packages: a little under twice the heap they take once loaded. The
// driver sets it for runs that analyse every body (-infer, -shared,
// -config.unannotated).
//
// The loaded syntax and types are most of guardvet's memory, and they
// stay until the run ends. The analysis adds little that lives long, but
// it allocates a lot that does not: records of each package's functions,
// dropped when its rules are done. Left to the default pacing, the
// garbage collector lets the heap grow to twice what was live at its last
// cycle, so a run that analyses every body took half as much memory again
// as the default run, which analyses only annotated packages, for
// garbage. With the ceiling the collector runs more often instead, as the
// heap nears it: on std, -infer peaks at 4.1 GB instead of 5.4-5.8 GB for
// about 7% more time. A default run is left to the default pacing: on
// gVisor's annotated tcpip, the same ceiling cost 19% more wall time to
// save 18% of its peak. The limit is soft: if live data outgrows it, the
// collector caps its own CPU share and the heap grows past it.
// GOMEMLIMIT, when set, wins.
func heapCeiling() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := sample[0].Value.Uint64()
	debug.SetMemoryLimit(int64(max(live, 256<<20) * ceilingPercent / 100))
}
