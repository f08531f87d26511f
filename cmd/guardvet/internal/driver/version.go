package driver

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the release this source tree is, or will be tagged as. It is
// what guardvet reports when the build carries no module version (go run,
// go test, -buildvcs=false). Change it here, and only here, when tagging a
// release.
const Version = "v0.1.0"

// ModuleVersion is guardvet's version: the main module's version from the
// build information (v0.1.0 for go install ...@v0.1.0; a pseudo-version
// such as v0.1.1-0.20261201054638-82e587f1a2b3+dirty for go build in a
// checkout), or Version when the build has none.
func ModuleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return Version
}

// revision returns the VCS revision the binary was built from (12 hex
// digits) and whether the tree had uncommitted changes, when go build
// recorded them.
func revision() (rev string, modified bool) {
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

// VersionLine is what guardvet -version prints: the version, the VCS
// revision when known, and the Go toolchain.
func VersionLine() string {
	var b strings.Builder
	b.WriteString("guardvet " + ModuleVersion())
	if rev, modified := revision(); rev != "" {
		b.WriteString(" (revision " + rev)
		if modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	b.WriteString(" " + runtime.Version())
	return b.String()
}

// vetVersionFlag is the -V flag of the go vet protocol. go vet runs the
// tool with -V=full and keys its cache on the answer: for a line of the
// form "NAME version devel ... buildID=ID" it uses ID, here a hash of the
// executable, so a rebuilt guardvet never reuses stale results. The
// version and revision go in the middle, where go vet ignores them
// (x/tools' unitchecker prints "comments-go-here" there). Plain -V prints
// VersionLine.
type vetVersionFlag struct{ stdout io.Writer }

func (vetVersionFlag) IsBoolFlag() bool { return true }
func (vetVersionFlag) String() string   { return "" }
func (f vetVersionFlag) Set(s string) error {
	if s != "full" {
		fmt.Fprintln(f.stdout, VersionLine())
		os.Exit(0)
	}
	line, err := vetVersionFull()
	if err != nil {
		return err
	}
	fmt.Fprintln(f.stdout, line)
	os.Exit(0)
	return nil
}

func vetVersionFull() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	file, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", err
	}
	middle := "guardvet-" + ModuleVersion()
	if rev, modified := revision(); rev != "" {
		middle += " revision-" + rev
		if modified {
			middle += "-modified"
		}
	}
	return fmt.Sprintf("%s version devel %s buildID=%02x", exe, middle, h.Sum(nil)), nil
}
