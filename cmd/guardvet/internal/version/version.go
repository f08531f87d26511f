// Package version is guardvet's version: the release constant, the
// module version from the build information, the VCS revision, and the
// line guardvet -version prints. The go vet protocol's -V=full line is
// vetproto's.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the release this source tree is, or will be tagged as. It is
// what guardvet reports when the build carries no module version (go run,
// go test, -buildvcs=false). Change it here, and only here, when tagging a
// release.
const Version = "v0.1.0"

// Module is guardvet's version: the main module's version from the
// build information (v0.1.0 for go install ...@v0.1.0; a pseudo-version
// such as v0.1.1-0.20261201054638-82e587f1a2b3+dirty for go build in a
// checkout), or Version when the build has none.
func Module() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return Version
}

// Revision returns the VCS revision the binary was built from (12 hex
// digits) and whether the tree had uncommitted changes, when go build
// recorded them.
func Revision() (rev string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev, modified
}

// Line is what guardvet -version prints: the version, the VCS revision
// when known, and the Go toolchain.
func Line() string {
	var b strings.Builder
	b.WriteString("guardvet " + Module())
	if rev, modified := Revision(); rev != "" {
		b.WriteString(" (revision " + rev)
		if modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	b.WriteString(" " + runtime.Version())
	return b.String()
}
