// Package testdir locates the repository's testdata directory, where the
// analyzers' fixtures are (testdata/src/<pkg>), for their tests.
package testdir

import (
	"path/filepath"
	"runtime"
	"testing"
)

// Path returns the absolute path of the repository's testdata directory,
// or fails the test.
func Path(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0) // analyzer/internal/testdir/testdir.go
	if !ok {
		t.Fatal("testdir: no caller information")
	}
	dir, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
