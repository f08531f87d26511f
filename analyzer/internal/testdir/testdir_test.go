package testdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathHoldsTheFixtures(t *testing.T) {
	dir := Path(t)
	if !filepath.IsAbs(dir) {
		t.Fatalf("Path = %q, not absolute", dir)
	}
	if st, err := os.Stat(filepath.Join(dir, "src", "basic")); err != nil || !st.IsDir() {
		t.Fatalf("%s has no src/basic fixture: %v", dir, err)
	}
}
