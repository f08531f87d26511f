// Package configflag is what guardvet's command lines, standalone
// (driver) and under go vet (vetproto), and the configuration file's
// application (adopt) share about the config analyzer's options, which
// are flag values (config.Analyzer.Flags): the usage of the flags both
// command lines spell alike, and MustSet.
package configflag

import (
	"flag"
	"fmt"

	"github.com/guardvet/guardvet/analyzer/config"
)

// InferUsage is the usage of -infer, standalone and under go vet.
const InferUsage = "infer guards for fields without directives (same as -config.infer)"

// StrictUsage is the usage of -strict, standalone and under go vet.
const StrictUsage = "checkthenact and escape also report what cannot lose an update: an act a callee re-checks, idempotent or one-way writes, copy-on-write or nil maps and slices handed out (same as -config.strict)"

// MustSet sets a boolean option of the config analyzer that exists:
// a failure is a bug in guardvet, not a user's mistake.
// It is for start-up only: the command line and the configuration file
// are read into the flags before any package is analysed, and a run's
// configuration is fixed from them (config.FromFlags).
func MustSet(name, value string) { mustSet(&config.Analyzer.Flags, name, value) }

func mustSet(fs *flag.FlagSet, name, value string) {
	if err := fs.Set(name, value); err != nil {
		panic(fmt.Sprintf("guardvet: setting -config.%s=%s: %v", name, value, err))
	}
}
