package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictSwitch: -strict (standalone and under go vet) and
// -config.strict bring back what checkthenact and escape leave out by
// default; without them the fixture is clean.
func TestStrictSwitch(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const fixture = "./testdata/src/escapestrict"
	const cow = "testdata/src/escapestrict/escapestrict.go:19:9: returns d.entries, the guarded slice itself"
	if stdout, stderr, code := run(t, root, guardvet, "-cache=off", fixture); code != 0 || stdout != "" {
		t.Errorf("without -strict: exit %d, want 0 and nothing\n%s%s", code, stdout, stderr)
	}
	for _, flag := range []string{"-strict", "-config.strict"} {
		if stdout, stderr, code := run(t, root, guardvet, "-cache=off", flag, fixture); code != 1 || !strings.Contains(stdout, cow) {
			t.Errorf("%s: exit %d, want 1 and %q\n%s%s", flag, code, cow, stdout, stderr)
		}
		_, stderr, code := run(t, root, "go", "vet", "-vettool="+guardvet, flag, fixture)
		if code != 1 || !strings.Contains(stderr, cow) {
			t.Errorf("go vet %s: exit %d, want 1 and %q\n%s", flag, code, cow, stderr)
		}
	}
}
