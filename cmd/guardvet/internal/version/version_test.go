package version

import (
	"runtime"
	"strings"
	"testing"
)

// TestLine: a test binary carries no module version, so the version is
// the constant Version, and the line is "guardvet VERSION", the revision
// when go recorded one, then the Go toolchain.
func TestLine(t *testing.T) {
	if got := Module(); got != Version {
		t.Errorf("Module() = %q in a test binary; want the constant %q", got, Version)
	}
	line := Line()
	rev, modified := Revision()
	want := "guardvet " + Version + " " + runtime.Version()
	if rev != "" {
		want = "guardvet " + Version + " (revision " + rev + map[bool]string{true: ", modified", false: ""}[modified] + ") " + runtime.Version()
	}
	if line != want {
		t.Errorf("Line() = %q, want %q", line, want)
	}
	if len(rev) > 12 || strings.Trim(rev, "0123456789abcdef") != "" {
		t.Errorf("Revision() = %q: want at most 12 hex digits", rev)
	}
}
