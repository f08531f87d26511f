//go:build unix

package corpus

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident set of a finished process, in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
}
