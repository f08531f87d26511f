package driver

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapCeiling sets a soft memory limit for the analysis of loaded
// packages: half as much again as the heap they take once loaded.
//
// The loaded syntax and types are most of guardvet's memory, and they
// stay until the run ends. The analysis adds little that lives long, but
// it allocates a lot that does not: records of each package's functions,
// dropped when its rules are done. Left to the default pacing, the
// garbage collector lets the heap grow to twice what was live at its last
// cycle, so a run that analyses every body (-infer, -shared) took half as
// much memory again as one that analyses few, for garbage. With the
// ceiling the collector runs more often instead, as the heap nears it.
// The limit is soft: if live data outgrows it, the collector caps its own
// CPU share and the heap grows past it. GOMEMLIMIT, when set, wins.
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
	debug.SetMemoryLimit(int64(2 * max(live, 256<<20)))
}
