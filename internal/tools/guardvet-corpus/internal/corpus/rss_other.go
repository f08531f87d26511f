//go:build !unix

package corpus

import "os"

// peakRSS is not measured on this system.
func peakRSS(*os.ProcessState) int64 { return 0 }
