// Package testconfig sets guardvet's options for the length of a test, as
// the command line would (config.Set), and restores them when it ends.
package testconfig

import (
	"testing"

	"github.com/guardvet/guardvet/analyzer/config"
)

// Set sets option name (a flag of config.Analyzer, without -config.) to
// value until t and its subtests end, or fails the test.
func Set(t testing.TB, name, value string) {
	t.Helper()
	restore, err := config.Set(name, value)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restore)
}
