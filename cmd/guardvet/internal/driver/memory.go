package driver

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// ceilingPercent is the heap ceiling, in percent of the heap the loaded
// packages take: a little under the twice the collector's own pacing
// allows (docs/speed.md has the measurements that chose it).
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
// heap nears it. A default run is left to the default pacing, where the
// ceiling cost more time than the memory it saved (docs/speed.md). The
// limit is soft: if live data outgrows it, the
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
